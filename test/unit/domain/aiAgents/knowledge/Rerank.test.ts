import { describe, expect, it } from "@effect/vitest"
import { parseRerank, rerankPrompt } from "../../../../../src/domain/aiAgents/knowledge/Rerank.js"

describe("the rerank answer", () => {
  it("reads the order, named passages first, the others after in their fused order", () => {
    expect(parseRerank("{\"order\": [3, 1, 2]}", 3)).toEqual([2, 0, 1])
    expect(parseRerank("{\"order\": [2]}", 4)).toEqual([1, 0, 2, 3])
    // Numbers as strings, surrounding prose, a code fence.
    expect(parseRerank("Sure! ```json\n{\"order\": [\"2\", \"1\"]}\n```", 2)).toEqual([1, 0])
  })

  it("skips numbers out of range, repeated, fractional or not numbers", () => {
    expect(parseRerank("{\"order\": [0, 9, 2, 2, 1.5, null, \"x\", -1, 3]}", 3)).toEqual([1, 2, 0])
  })

  it("gives nothing for an answer that is not such JSON (the fused order stands)", () => {
    for (
      const answer of [
        "",
        "Passage two looks best.",
        "{\"order\": [7, 8]}",
        "{\"order\": []}",
        "{\"ranking\": [1, 2]}",
        "{\"order\": \"1,2\"}",
        "[1, 2]",
        "{\"order\": [1, 2]",
        "{ not json }"
      ]
    ) {
      expect(parseRerank(answer, 3)).toBeUndefined()
    }
  })

  it("numbers the passages from 1, whitespace folded and each shortened", () => {
    const prompt = rerankPrompt("card refunds", [{ text: "Refunds\n\nin 5   days" }, { text: "x".repeat(1000) }])
    expect(prompt.split("\n")[0]).toBe("Query: card refunds")
    expect(prompt).toContain("[1] Refunds in 5 days")
    expect(prompt).toContain(`[2] ${"x".repeat(600)}\n`.trimEnd())
    expect(prompt).not.toContain("x".repeat(601))
  })
})
