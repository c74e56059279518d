import { describe, expect, it } from "@effect/vitest"
import {
  BM25_DEFAULTS,
  inverseDocumentFrequency,
  isExact,
  planQuery,
  scoreChunk,
  termScore
} from "../../../../../src/domain/aiAgents/knowledge/Bm25.js"

describe("BM25", () => {
  it("weighs a term by its rarity (Lucene's IDF, never negative)", () => {
    expect(inverseDocumentFrequency(10, 1)).toBeCloseTo(Math.log(1 + 9.5 / 1.5))
    expect(inverseDocumentFrequency(10, 10)).toBeCloseTo(Math.log(1 + 0.5 / 10.5))
    expect(inverseDocumentFrequency(10, 10)).toBeGreaterThan(0)
    expect(inverseDocumentFrequency(1000, 3)).toBeGreaterThan(inverseDocumentFrequency(1000, 30))
  })

  it("saturates a term's frequency and normalizes by length", () => {
    const { b, k1 } = BM25_DEFAULTS
    expect(termScore(2, 0, 10, 10)).toBe(0)
    expect(termScore(2, 1, 10, 10)).toBeCloseTo(2 * (k1 + 1) / (1 + k1))
    expect(termScore(2, 3, 20, 10)).toBeCloseTo(2 * 3 * (k1 + 1) / (3 + k1 * (1 - b + b * 2)))
    const growing = [1, 2, 4, 8, 1000].map((frequency) => termScore(1, frequency, 10, 10))
    expect(growing).toEqual([...growing].sort((x, y) => x - y))
    expect(growing[4]).toBeLessThan(k1 + 1)
    expect(termScore(1, 1, 5, 10)).toBeGreaterThan(termScore(1, 1, 20, 10))
    const noLength = { ...BM25_DEFAULTS, b: 0 }
    expect(termScore(1, 1, 5, 10, noLength)).toBeCloseTo(termScore(1, 1, 50, 10, noLength))
  })

  it("probes with the rarest terms while their chunks fit the budget, and bounds what the others could add", () => {
    const index = { chunks: 1000, tokens: 50_000 }
    const plan = planQuery(
      [
        { lexeme: "refund", documentFrequency: 40 },
        { lexeme: "card", documentFrequency: 300 },
        { lexeme: "zebra", documentFrequency: 2 },
        { lexeme: "unknown", documentFrequency: 0 },
        { lexeme: "zebra", documentFrequency: 2 },
        { lexeme: "account", documentFrequency: 300 }
      ],
      index,
      400
    )
    expect(plan.terms.map((term) => term.lexeme)).toEqual(["zebra", "refund", "account", "card"])
    expect(plan.terms[0]!.idf).toBeCloseTo(inverseDocumentFrequency(1000, 2))
    expect(plan.probe).toEqual(["zebra", "refund", "account"])
    expect(plan.unprobedBound).toBeCloseTo(inverseDocumentFrequency(1000, 300) * (BM25_DEFAULTS.k1 + 1))
    expect(plan.averageLength).toBe(50)
    // The rarest term probes whatever the budget; nothing unprobed, nothing to bound.
    expect(planQuery([{ lexeme: "card", documentFrequency: 300 }], index, 10)).toMatchObject({
      probe: ["card"],
      unprobedBound: 0
    })
    expect(planQuery([{ lexeme: "gone", documentFrequency: 0 }], index, 10).terms).toEqual([])
  })

  it("scores a chunk from the frequencies of the plan's terms, in the plan's order", () => {
    const plan = planQuery(
      [{ lexeme: "a", documentFrequency: 1 }, { lexeme: "b", documentFrequency: 5 }],
      { chunks: 10, tokens: 100 },
      100
    )
    const [a, b] = plan.terms
    expect(scoreChunk(plan, [2, 0], 10)).toBeCloseTo(termScore(a!.idf, 2, 10, 10))
    expect(scoreChunk(plan, [1, 3], 20)).toBeCloseTo(termScore(a!.idf, 1, 20, 10) + termScore(b!.idf, 3, 20, 10))
    expect(scoreChunk(plan, [], 10)).toBe(0)
  })

  it("says when the probed chunks' best are exactly the best of all", () => {
    const plan = { terms: [], probe: [], unprobedBound: 3, averageLength: 10 }
    expect(isExact(plan, [9, 5, 3.5, 1], 3)).toBe(true)
    expect(isExact(plan, [9, 5, 2.9], 3)).toBe(false)
    expect(isExact(plan, [9, 5], 3)).toBe(false)
    expect(isExact({ ...plan, unprobedBound: 0 }, [9], 3)).toBe(true)
  })

  it("when it says exact, the probe's top k is an exhaustive BM25's (random corpora)", () => {
    // mulberry32, seeded: the same corpora every run.
    let seed = 7
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
    }
    const vocabulary = Array.from({ length: 200 }, (_, at) => `t${at}`)
    let exactRuns = 0
    for (let run = 0; run < 200; run++) {
      // Zipf-like: low-numbered terms are common.
      const chunks = Array.from({ length: 60 }, () => {
        const frequencies = new Map<string, number>()
        const length = 5 + Math.floor(random() * 30)
        for (let word = 0; word < length; word++) {
          const term = vocabulary[Math.floor(vocabulary.length * random() ** 2.5)]!
          frequencies.set(term, (frequencies.get(term) ?? 0) + 1)
        }
        return { frequencies, length }
      })
      // A few rarer terms and a few common ones, as a question mixes them.
      const query = [
        ...new Set([
          ...Array.from({ length: 2 }, () => vocabulary[20 + Math.floor(random() * 40)]!),
          ...Array.from({ length: 2 }, () => vocabulary[Math.floor(random() * 10)]!)
        ])
      ]
      const statistics = query.map((lexeme) => ({
        lexeme,
        documentFrequency: chunks.filter((chunk) => chunk.frequencies.has(lexeme)).length
      }))
      const index = { chunks: chunks.length, tokens: chunks.reduce((sum, chunk) => sum + chunk.length, 0) }
      const plan = planQuery(statistics, index, 20)
      const scoreOf = (chunk: (typeof chunks)[number]) =>
        scoreChunk(plan, plan.terms.map((term) => chunk.frequencies.get(term.lexeme) ?? 0), chunk.length)
      const all = chunks.map(scoreOf).filter((score) => score > 0).sort((x, y) => y - x)
      const probed = chunks
        .filter((chunk) => plan.probe.some((lexeme) => chunk.frequencies.has(lexeme)))
        .map(scoreOf)
        .sort((x, y) => y - x)
      const k = 3
      if (isExact(plan, probed, k)) {
        if (plan.unprobedBound > 0) exactRuns++
        expect(probed.slice(0, k)).toEqual(all.slice(0, k))
      }
    }
    // Runs where some term did not probe and the bound still proved the answer exact.
    expect(exactRuns).toBeGreaterThan(20)
  })
})
