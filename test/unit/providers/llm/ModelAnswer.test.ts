import { Response } from "@effect/ai"
import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { addPart, emptyAnswer } from "../../../../src/providers/llm/ModelAnswer.js"

describe("a streamed model answer", () => {
  it("folds text deltas, tool calls, the model and the finish with its tokens", () => {
    const parts: Array<Response.AnyPart> = [
      Response.makePart("response-metadata", {
        id: Option.some("r1"),
        modelId: Option.some("model-2026"),
        timestamp: Option.none()
      }),
      Response.makePart("text-delta", { id: "t", delta: "Both " }),
      Response.makePart("text-delta", { id: "t", delta: "shipped." }),
      Response.makePart("tool-call", {
        id: "call_a",
        name: "lookup",
        params: { orderId: "A1" },
        providerExecuted: false
      }),
      Response.makePart("finish", {
        reason: "tool-calls",
        usage: new Response.Usage({ inputTokens: 12, outputTokens: 7, totalTokens: 19 })
      })
    ] as Array<Response.AnyPart>
    expect(parts.reduce(addPart, emptyAnswer)).toEqual({
      text: "Both shipped.",
      toolCalls: [{ id: "call_a", name: "lookup", params: { orderId: "A1" } }],
      finishReason: "tool-calls",
      inputTokens: 12,
      outputTokens: 7,
      modelId: "model-2026"
    })
  })

  it("is empty with an unknown finish until parts come", () => {
    expect(emptyAnswer).toMatchObject({ text: "", toolCalls: [], finishReason: "unknown", modelId: null })
  })
})
