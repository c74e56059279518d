import { Response, Toolkit } from "@effect/ai"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Schema } from "effect"
import { plainParts, plainStreamParts } from "../../../../src/providers/llm/FastLanguageModel.js"

const decodeParts = Schema.decodeUnknown(Schema.mutable(Schema.Array(Response.Part(Toolkit.empty))))
const decodeStreamParts = Schema.decodeUnknown(Schema.ChunkFromSelf(Response.StreamPart(Toolkit.empty)))

/** Encoded answers as the adapters make them, and a few they never make but a provider might send. */
const answers: ReadonlyArray<ReadonlyArray<Response.PartEncoded>> = [
  [
    { type: "response-metadata", id: "chatcmpl-1", modelId: "gpt-test" },
    { type: "text", text: "Hello there" },
    { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } }
  ],
  [
    { type: "response-metadata" },
    { type: "finish", reason: "length", usage: { inputTokens: undefined, outputTokens: 9, totalTokens: undefined } }
  ],
  [{ type: "text", text: "" }, { type: "finish", reason: "unknown", usage: {} as never }],
  [{ type: "response-metadata", id: "x", modelId: "m", timestamp: "2026-11-26T10:00:00.000Z" }],
  [{ type: "text", text: "with metadata", metadata: { openai: { refusal: "no" } } }],
  [{ type: "finish", reason: "stop", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 7 } }],
  [{ type: "reasoning", text: "thinking" }]
]

/** Stream chunks as the adapters make them, and a few they never make. */
const streams: ReadonlyArray<ReadonlyArray<Response.StreamPartEncoded>> = [
  [
    { type: "response-metadata", id: "chatcmpl-1", modelId: "gpt-test" },
    { type: "text-start", id: "text" },
    { type: "text-delta", id: "text", delta: "Hel" },
    { type: "text-delta", id: "text", delta: "lo" },
    { type: "text-end", id: "text" },
    { type: "finish", reason: "stop", usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } }
  ],
  [{ type: "text-delta", id: "text", delta: "", metadata: { openai: { refusal: "no" } } }],
  [{ type: "reasoning-delta", id: "r", delta: "thinking" }, { type: "text-delta", id: "text", delta: "x" }]
]

describe("a plain answer's parts", () => {
  it.effect("are built exactly as the schema decodes them, for every kind", () =>
    Effect.gen(function*() {
      for (const answer of answers) {
        const fast = yield* plainParts(answer)
        const decoded = yield* decodeParts(answer)
        expect(fast).toStrictEqual(decoded)
        expect(fast.map((part) => part.constructor)).toEqual(decoded.map((part) => part.constructor))
      }
    }))

  it.effect("in a stream are built exactly as the schema decodes them, for every kind", () =>
    Effect.gen(function*() {
      for (const stream of streams) {
        const fast = Chunk.toArray(yield* plainStreamParts(Chunk.fromIterable(stream)))
        const decoded = Chunk.toArray(yield* decodeStreamParts(Chunk.fromIterable(stream)))
        expect(fast).toStrictEqual(decoded)
      }
      const error = yield* Effect.flip(plainStreamParts(Chunk.make({ type: "text-delta", id: 1 } as never)))
      expect(error._tag).toBe("MalformedOutput")
    }))

  it.effect("that the schema refuses are a MalformedOutput, not a defect", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(plainParts([{ type: "finish", reason: "nonsense", usage: {} } as never]))
      expect(error._tag).toBe("MalformedOutput")
      const text = yield* Effect.flip(plainParts([{ type: "text", text: 42 } as never]))
      expect(text._tag).toBe("MalformedOutput")
    }))
})
