/**
 * LLM base URLs obey the outbound address rule of HTTP tools: a loopback
 * (or private, or metadata) endpoint is refused before any connection unless
 * `PARLEY_TOOL_ALLOWED_HOSTS` opens it, and the refusal is typed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LlmClients } from "../../../src/providers/llm/LlmClients.js"
import { makeFakeAnthropic } from "../../support/FakeAnthropic.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { llmClientsWith, target } from "../../support/LlmTesting.js"

describe("the outbound rule for LLM base URLs", () => {
  it.scopedLive("without the allow-list a loopback endpoint is refused, and nothing reaches it", () =>
    Effect.gen(function*() {
      const openAi = yield* makeFakeOpenAi
      const anthropic = yield* makeFakeAnthropic
      const clients = yield* LlmClients
      const byName = yield* Effect.flip(clients.roundTrip({
        ...target({
          provider: "openai-compatible",
          model: "m",
          baseUrl: `${openAi.origin.replace("127.0.0.1", "localhost")}/v1`
        }),
        prompt: "hi"
      }))
      expect(byName.kind).toBe("outbound-refused")
      expect(byName.message).toMatch(/loopback/)
      const byAddress = yield* Effect.flip(clients.roundTrip({
        ...target({ provider: "anthropic", model: "c", baseUrl: anthropic.origin }, "sk-ant-x"),
        prompt: "hi"
      }))
      expect(byAddress.kind).toBe("outbound-refused")
      const metadata = yield* Effect.flip(clients.roundTrip({
        ...target({ provider: "openai", model: "m", baseUrl: "http://169.254.169.254/v1", requestTimeoutSeconds: 2 }),
        prompt: "hi"
      }))
      expect(metadata.kind).toBe("outbound-refused")
      expect([openAi.requests.length, anthropic.requests.length]).toEqual([0, 0])
    }).pipe(Effect.provide(llmClientsWith({ PARLEY_TOOL_ALLOWED_HOSTS: "" }))))

  it.scopedLive("with loopback allowed the same endpoint answers; a host that does not resolve is named", () =>
    Effect.gen(function*() {
      const openAi = yield* makeFakeOpenAi
      const clients = yield* LlmClients
      const trip = yield* clients.roundTrip({
        ...target({ provider: "openai-compatible", model: "m", baseUrl: `${openAi.origin}/v1` }),
        prompt: "hi"
      })
      expect(trip.reply).toBe("Hello from the fake.")
      const missing = yield* Effect.flip(clients.roundTrip({
        ...target({
          provider: "openai-compatible",
          model: "m",
          baseUrl: "http://no-such-host.invalid/v1",
          requestTimeoutSeconds: 5
        }),
        prompt: "hi"
      }))
      expect(missing.kind).toBe("host-not-found")
      expect(missing.message).toBe("cannot resolve the host no-such-host.invalid")
    }).pipe(Effect.provide(llmClientsWith({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.0/8" }))))
})
