import { describe, expect, it } from "@effect/vitest"
import { fuseLexical, LEXICAL_DEFAULTS } from "../../../../../src/domain/aiAgents/knowledge/LexicalRanking.js"

const weights = { sentenceWeight: 2, wordWeight: 1 }

describe("fuseLexical", () => {
  it("sums BM25 over the best and the weighted similarities, over the weights' sum (0 to 1)", () => {
    const fused = fuseLexical([
      { key: "a", bm25: 8, sentenceSimilarity: 1, wordSimilarity: 1 },
      { key: "b", bm25: 4, sentenceSimilarity: 0.5, wordSimilarity: 0 }
    ], weights)
    expect(fused).toEqual([{ key: "a", score: 1 }, { key: "b", score: (0.5 + 2 * 0.5) / 4 }])
  })

  it("lets a close wording overturn a small BM25 lead; ties keep the candidates' order", () => {
    const fused = fuseLexical([
      { key: "lexical", bm25: 10, sentenceSimilarity: 0.1, wordSimilarity: 0.2 },
      { key: "worded", bm25: 9, sentenceSimilarity: 0.9, wordSimilarity: 0.8 },
      { key: "same", bm25: 9, sentenceSimilarity: 0.9, wordSimilarity: 0.8 }
    ], weights)
    expect(fused.map((hit) => hit.key)).toEqual(["worded", "same", "lexical"])
  })

  it("ranks by the similarities alone when no word matched (the trigram fallback)", () => {
    const fused = fuseLexical([
      { key: "a", bm25: 0, sentenceSimilarity: 0.3, wordSimilarity: 0.6 },
      { key: "b", bm25: 0, sentenceSimilarity: 0.6, wordSimilarity: 0.6 }
    ], weights)
    expect(fused).toEqual([{ key: "b", score: (1.2 + 0.6) / 3 }, { key: "a", score: (0.6 + 0.6) / 3 }])
  })

  it("keeps BM25's order past the re-ranked candidates, never scored above the last of them", () => {
    const fused = fuseLexical([
      { key: "a", bm25: 10, sentenceSimilarity: 0, wordSimilarity: 0 },
      { key: "b", bm25: 9, sentenceSimilarity: 0.2, wordSimilarity: 0 },
      { key: "c", bm25: 8, sentenceSimilarity: null, wordSimilarity: null },
      { key: "d", bm25: 2, sentenceSimilarity: null, wordSimilarity: null }
    ], LEXICAL_DEFAULTS)
    expect(fused.map((hit) => hit.key)).toEqual(["b", "a", "c", "d"])
    const scores = fused.map((hit) => hit.score)
    expect(scores).toEqual([...scores].sort((x, y) => y - x))
    expect(fuseLexical([])).toEqual([])
  })
})
