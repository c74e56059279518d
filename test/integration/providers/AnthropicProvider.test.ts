/**
 * The anthropic provider (@effect/ai-anthropic over Parley's HTTP client)
 * against a fake Anthropic Messages API on loopback: plain, streamed (its
 * event types), tool use, 429 with Retry-After, 529, a hang, a refused key.
 */
import { Tool, Toolkit } from "@effect/ai"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Schema, Stream } from "effect"
import { fromAiError } from "../../../src/providers/llm/LlmCallFailure.js"
import { LlmClients } from "../../../src/providers/llm/LlmClients.js"
import { makeFakeAnthropic, modelNotFound, overloaded, rateLimited, unauthorized } from "../../support/FakeAnthropic.js"
import { answer, hang } from "../../support/FakeLlmServer.js"
import { llmClientsWith, target } from "../../support/LlmTesting.js"

const KEY = "sk-ant-test-0123456789abcdef"

const Weather = Tool.make("weather", {
  description: "The weather in a city",
  parameters: { city: Schema.String },
  success: Schema.Struct({ forecast: Schema.String })
})
const Tools = Toolkit.make(Weather)
const ToolsLive = Tools.toLayer({ weather: ({ city }) => Effect.succeed({ forecast: `rain in ${city}` }) })

const setup = (requestTimeoutSeconds = 5, baseSuffix = "") =>
  Effect.gen(function*() {
    const fake = yield* makeFakeAnthropic
    const clients = yield* LlmClients
    const primary = target(
      { provider: "anthropic", model: "claude-test", baseUrl: `${fake.origin}${baseSuffix}`, requestTimeoutSeconds },
      KEY
    )
    return { fake, clients, primary, model: yield* clients.languageModel(primary) }
  })

describe("the Anthropic provider against its fake", () => {
  it.scopedLive("a plain answer: text, usage, the model that answered, the key in x-api-key", () =>
    Effect.gen(function*() {
      const { clients, fake, primary } = yield* setup(5, "/v1")
      fake.respond(() => answer({ text: "Hallo!", usage: { input: 17, output: 3 } }))
      const trip = yield* clients.roundTrip({ ...primary, prompt: "Say hello in German" })
      expect(trip).toMatchObject({
        reply: "Hallo!",
        reportedModel: "claude-test-20260101",
        usage: { inputTokens: 17, outputTokens: 3 }
      })
      const [request] = fake.requests
      expect(new URL(request!.path, "http://x").pathname).toBe("/v1/messages")
      expect(request!.headers["x-api-key"]).toBe(KEY)
      expect(request!.headers["anthropic-version"]).toBe("2023-06-01")
      expect(request!.body).toMatchObject({
        model: "claude-test",
        max_tokens: 1024,
        temperature: 0.3,
        messages: [{ role: "user", content: [{ type: "text", text: "Say hello in German" }] }]
      })
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a streamed answer: message_start, text deltas, message_delta usage", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup()
      fake.respond(() => answer({ text: "eins zwei drei", usage: { input: 8, output: 3 } }))
      const parts = Chunk.toArray(yield* Stream.runCollect(model.streamText({ prompt: "count" })))
      expect(parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : [])).toEqual([
        "eins ",
        "zwei ",
        "drei"
      ])
      const finish = parts.find((part) => part.type === "finish")
      expect([finish?.reason, finish?.usage.inputTokens, finish?.usage.outputTokens]).toEqual(["stop", 8, 3])
      expect(fake.requests[0]!.body.stream).toBe(true)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("tool use, plain and streamed: the tool is called with the model's input and its result returned", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup()
      const tools = yield* Tools
      fake.respond(() => answer({ text: "Let me look.", toolCalls: [{ name: "weather", input: { city: "Bern" } }] }))
      const plain = yield* model.generateText({ prompt: "weather in Bern?", toolkit: tools })
      expect(plain.toolCalls.map((call) => [call.name, call.params])).toEqual([["weather", { city: "Bern" }]])
      expect(plain.toolResults.map((result) => result.result)).toEqual([{ forecast: "rain in Bern" }])
      expect(fake.requests[0]!.body.tools).toMatchObject([{ name: "weather", input_schema: { type: "object" } }])
      const streamed = Chunk.toArray(yield* Stream.runCollect(model.streamText({ prompt: "weather?", toolkit: tools })))
      const call = streamed.find((part) => part.type === "tool-call")
      const result = streamed.find((part) => part.type === "tool-result")
      expect([call?.name, call?.params, result?.result]).toEqual(["weather", { city: "Bern" }, {
        forecast: "rain in Bern"
      }])
    }).pipe(Effect.provide([llmClientsWith(), ToolsLive])))

  it.scopedLive("a 429 with Retry-After is rate-limited and blocks the next call; a 529 is a provider error", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup()
      fake.respond(() => rateLimited(12))
      const limited = fromAiError(yield* Effect.flip(model.generateText({ prompt: "hi" })), [KEY])
      expect([limited.kind, limited.httpStatus, limited.retryAfterMs]).toEqual(["rate-limited", 429, 12_000])
      yield* Effect.flip(model.generateText({ prompt: "hi" }))
      expect(fake.requests).toHaveLength(1)

      const other = yield* setup()
      other.fake.respond(() => overloaded)
      const busy = fromAiError(yield* Effect.flip(other.model.generateText({ prompt: "hi" })), [KEY])
      expect([busy.kind, busy.httpStatus]).toEqual(["provider-error", 529])
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a hang is a time-out; a refused key and an unknown model are typed", () =>
    Effect.gen(function*() {
      const { clients, fake, primary } = yield* setup(1)
      fake.respond(() => hang)
      expect((yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))).kind).toBe("timeout")
      fake.respond(() => unauthorized)
      const refused = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect([refused.kind, refused.httpStatus, refused.message]).toEqual(["authentication", 401, "invalid x-api-key"])
      fake.respond((request) => modelNotFound(request.body.model))
      const unknown = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect([unknown.kind, unknown.message]).toEqual(["model-not-found", "model: claude-test"])
    }).pipe(Effect.provide(llmClientsWith())))
})
