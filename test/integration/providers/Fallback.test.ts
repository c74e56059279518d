/**
 * The fallback provider and the circuit breaker, with an OpenAI fake as the
 * primary and an Anthropic fake as the fallback: who answers, and who is
 * called, after 5xx, 429 with Retry-After, time-outs and wrong keys.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { fromAiError } from "../../../src/providers/llm/LlmCallFailure.js"
import { LlmClients } from "../../../src/providers/llm/LlmClients.js"
import { makeFakeAnthropic } from "../../support/FakeAnthropic.js"
import { answer, hang } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi, rateLimited, serverError, unauthorized } from "../../support/FakeOpenAi.js"
import { llmClientsWith, target } from "../../support/LlmTesting.js"

const setup = (primaryTimeoutSeconds = 5) =>
  Effect.gen(function*() {
    const primaryFake = yield* makeFakeOpenAi
    const fallbackFake = yield* makeFakeAnthropic
    primaryFake.respond(() => answer({ text: "from the primary" }))
    fallbackFake.respond(() => answer({ text: "from the fallback" }))
    const model = yield* (yield* LlmClients).languageModel(
      target({
        provider: "openai",
        model: "gpt-main",
        baseUrl: `${primaryFake.origin}/v1`,
        requestTimeoutSeconds: primaryTimeoutSeconds
      }, "sk-primary-key-000"),
      target({ provider: "anthropic", model: "claude-spare", baseUrl: fallbackFake.origin }, "sk-ant-spare-000")
    )
    const ask = model.generateText({ prompt: "hello" }).pipe(Effect.map((response) => response.text))
    return { primaryFake, fallbackFake, model, ask }
  })

describe("fallback and circuit breaker", () => {
  it.scopedLive("a 5xx from the primary: the fallback answers", () =>
    Effect.gen(function*() {
      const { ask, fallbackFake, primaryFake } = yield* setup()
      primaryFake.respond(() => serverError)
      expect(yield* ask).toBe("from the fallback")
      expect([primaryFake.requests.length, fallbackFake.requests.length]).toEqual([1, 1])
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a 429 with Retry-After: the fallback answers, and the primary is not called again before it", () =>
    Effect.gen(function*() {
      const { ask, fallbackFake, primaryFake } = yield* setup()
      primaryFake.respond(() => rateLimited(60))
      expect(yield* ask).toBe("from the fallback")
      primaryFake.respond(() => answer({ text: "from the primary" }))
      expect(yield* ask).toBe("from the fallback")
      expect(yield* ask).toBe("from the fallback")
      expect([primaryFake.requests.length, fallbackFake.requests.length]).toEqual([1, 3])
    }).pipe(Effect.provide(llmClientsWith({ PARLEY_LLM_BREAKER_FAILURES: "100" }))))

  it.scopedLive("a primary that times out: the fallback answers", () =>
    Effect.gen(function*() {
      const { ask, primaryFake } = yield* setup(1)
      primaryFake.respond(() => hang)
      expect(yield* ask).toBe("from the fallback")
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("the circuit opens after two failures: the dead primary is not called while open; after the cool-down one probe closes it", () =>
    Effect.gen(function*() {
      const { ask, fallbackFake, primaryFake } = yield* setup()
      primaryFake.respond(() => serverError)
      expect(yield* ask).toBe("from the fallback")
      expect(yield* ask).toBe("from the fallback")
      expect(primaryFake.requests).toHaveLength(2)
      for (let turn = 0; turn < 5; turn++) expect(yield* ask).toBe("from the fallback")
      expect(primaryFake.requests).toHaveLength(2)
      expect(fallbackFake.requests).toHaveLength(7)
      primaryFake.respond(() => answer({ text: "from the primary" }))
      yield* Effect.sleep("1100 millis")
      expect(yield* ask).toBe("from the primary")
      expect(yield* ask).toBe("from the primary")
      expect(primaryFake.requests).toHaveLength(4)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a probe that fails opens the circuit again for another cool-down", () =>
    Effect.gen(function*() {
      const { ask, primaryFake } = yield* setup()
      primaryFake.respond(() => serverError)
      yield* ask
      yield* ask
      yield* Effect.sleep("1100 millis")
      yield* ask
      expect(primaryFake.requests).toHaveLength(3)
      yield* ask
      expect(primaryFake.requests).toHaveLength(3)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a stream falls back when the primary fails before its first part", () =>
    Effect.gen(function*() {
      const { model, primaryFake } = yield* setup()
      primaryFake.respond(() => serverError)
      const parts = Chunk.toArray(yield* Stream.runCollect(model.streamText({ prompt: "hello" })))
      expect(parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join("")).toBe("from the fallback")
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a refused key is the primary's own answer: no fallback, and it does not count against the provider", () =>
    Effect.gen(function*() {
      const { ask, fallbackFake, primaryFake } = yield* setup()
      primaryFake.respond(() => unauthorized)
      for (let turn = 0; turn < 3; turn++) {
        expect(fromAiError(yield* Effect.flip(ask), []).kind).toBe("authentication")
      }
      expect([primaryFake.requests.length, fallbackFake.requests.length]).toEqual([3, 0])
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("without a fallback, an open circuit fails at once with a typed failure", () =>
    Effect.gen(function*() {
      const fake = yield* makeFakeOpenAi
      fake.respond(() => serverError)
      const model = yield* (yield* LlmClients).languageModel(
        target({ provider: "openai-compatible", model: "m", baseUrl: `${fake.origin}/v1` })
      )
      yield* Effect.flip(model.generateText({ prompt: "x" }))
      yield* Effect.flip(model.generateText({ prompt: "x" }))
      const open = fromAiError(yield* Effect.flip(model.generateText({ prompt: "x" })), [])
      expect(open.kind).toBe("provider-error")
      expect(open.message).toMatch(/failed repeatedly; not called for another \d+ ms/)
      expect(open.retryAfterMs).toBeGreaterThan(0)
      expect(fake.requests).toHaveLength(2)
    }).pipe(Effect.provide(llmClientsWith())))
})
