import { describe, expect, it } from "@effect/vitest"
import {
  estimateTokens,
  factLine,
  rankFacts,
  selectForPrompt,
  wordsOf
} from "../../../../src/domain/aiAgents/MemorySelection.js"

const fact = (name: string, key: string | null, content: string, updatedAtMillis: number) => ({
  name,
  key,
  content,
  updatedAtMillis
})

describe("MemorySelection", () => {
  it("estimates tokens as ceil(characters / 4) of the prompt line", () => {
    expect(estimateTokens("")).toBe(0)
    expect(estimateTokens("abcd")).toBe(1)
    expect(estimateTokens("abcde")).toBe(2)
    expect(factLine({ key: "lang", content: "French" })).toBe("lang: French")
    expect(factLine({ key: null, content: "French" })).toBe("French")
  })

  it("reads words of three or more letters, case-folded, in any script", () => {
    expect([...wordsOf("The Café, an ÉLAN of 42 and 7")]).toEqual(["the", "café", "élan", "and"])
  })

  it("ranks keyed facts first, then word overlap with the query, then recency", () => {
    const facts = [
      fact("old-unrelated", null, "The office closes at six", 1),
      fact("new-unrelated", null, "Shipping takes two days", 5),
      fact("overlap-two", null, "Refunds for damaged parcels are immediate", 2),
      fact("overlap-one", null, "Refunds need a receipt", 9),
      fact("keyed-old", "preferred_language", "Spanish", 0),
      fact("keyed-new", "plan", "Premium customer", 3)
    ]
    const ranked = rankFacts(facts, "How do refunds work for a damaged parcel? parcels!")
    expect(ranked.map((f) => f.name)).toEqual([
      "keyed-new",
      "keyed-old",
      "overlap-two",
      "overlap-one",
      "new-unrelated",
      "old-unrelated"
    ])
  })

  it("fills the budget greedily in ranking order, skipping a fact that does not fit", () => {
    const facts = [
      fact("big", "a", "x".repeat(100), 3), // "a: " + 100 = 103 chars = 26 tokens
      fact("small", null, "y".repeat(8), 2), // 2 tokens
      fact("medium", null, "z".repeat(40), 1) // 10 tokens
    ]
    expect(selectForPrompt(facts, "", 12).map((f) => f.name)).toEqual(["small", "medium"])
    expect(selectForPrompt(facts, "", 26).map((f) => f.name)).toEqual(["big"])
    expect(selectForPrompt(facts, "", 38).map((f) => f.name)).toEqual(["big", "small", "medium"])
    expect(selectForPrompt(facts, "", 0)).toEqual([])
    expect(selectForPrompt(facts, "", -5)).toEqual([])
    expect(selectForPrompt(facts, "", Number.NaN)).toEqual([])
  })
})
