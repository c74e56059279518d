import { LanguageModel, Prompt, Tool, Toolkit } from "@effect/ai"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Layer, Option, Schema, Stream } from "effect"
import { LlmConnection } from "../../../../src/domain/settings/LlmConnection.js"
import { LlmClients } from "../../../../src/providers/llm/LlmClients.js"
import { OfflineScript } from "../../../../src/providers/llm/OfflineScript.js"

const offline = Schema.decodeSync(LlmConnection)({ provider: "offline", model: "parley-offline" })
const target = { connection: offline, apiKey: Option.none() }

const Lookup = Tool.make("lookup", {
  description: "Look an order up",
  parameters: { orderId: Schema.String },
  success: Schema.Struct({ status: Schema.String })
})
const Tools = Toolkit.make(Lookup)
const ToolsLive = Tools.toLayer({ lookup: ({ orderId }) => Effect.succeed({ status: `order ${orderId} shipped` }) })

describe("the offline provider", () => {
  it.effect("the default script echoes, reports usage and the model, the same every time", () =>
    Effect.gen(function*() {
      const clients = yield* LlmClients
      const first = yield* clients.roundTrip({ ...target, prompt: "hello there" })
      const second = yield* clients.roundTrip({ ...target, prompt: "hello there" })
      expect(first.reply).toContain(`You said: "hello there"`)
      expect(first.reportedModel).toBe("parley-offline")
      expect(first.usage.inputTokens).toBe(3)
      expect(first.usage.outputTokens).toBeGreaterThan(10)
      expect({ ...second, latencyMs: 0 }).toEqual({ ...first, latencyMs: 0 })
    }).pipe(Effect.provide(LlmClients.Default)))

  it.effect("the default script calls a tool on /call and the toolkit runs it; the next turn reports the result", () =>
    Effect.gen(function*() {
      const model = yield* (yield* LlmClients).languageModel(target)
      const toolkit = yield* Tools
      const asked = yield* model.generateText({ prompt: `/call lookup {"orderId":"A7"}`, toolkit })
      expect(asked.toolCalls.map((call) => [call.name, call.params])).toEqual([["lookup", { orderId: "A7" }]])
      expect(asked.toolResults.map((result) => result.result)).toEqual([{ status: "order A7 shipped" }])
      expect(asked.finishReason).toBe("tool-calls")
      const prompt = Prompt.merge(Prompt.make(`/call lookup {"orderId":"A7"}`), Prompt.fromResponseParts(asked.content))
      const next = yield* model.generateText({ prompt, toolkit })
      expect(next.text).toContain(`order A7 shipped`)
    }).pipe(Effect.provide(Layer.merge(LlmClients.Default, ToolsLive))))

  it.effect("a test's script answers in the deltas it gives, streamed in order", () =>
    Effect.gen(function*() {
      const model = yield* (yield* LlmClients).languageModel(target)
      const parts = yield* model.streamText({ prompt: "stream please" }).pipe(Stream.runCollect)
      const deltas = Chunk.toArray(parts).flatMap((part) => part.type === "text-delta" ? [part.delta] : [])
      expect(deltas).toEqual(["Hel", "lo ", "stream please"])
      const finish = Chunk.toArray(parts).find((part) => part.type === "finish")
      expect(finish?.usage.outputTokens).toBe(7)
    }).pipe(
      Effect.provide(LlmClients.Default),
      Effect.provideService(OfflineScript, (turn) => ({
        deltas: ["Hel", "lo ", Prompt.make(turn.prompt).content.length === 1 ? "stream please" : "?"],
        usage: { inputTokens: 3, outputTokens: 7 }
      }))
    ))

  it.effect("LanguageModel.generateText works through the service as a LanguageModel", () =>
    Effect.gen(function*() {
      const model = yield* (yield* LlmClients).languageModel(target)
      const response = yield* LanguageModel.generateText({ prompt: "x" }).pipe(
        Effect.provideService(LanguageModel.LanguageModel, model)
      )
      expect(response.text).toContain(`You said: "x"`)
    }).pipe(Effect.provide(LlmClients.Default)))
})
