import { describe, expect, it } from "@effect/vitest"
import { fuse, RRF_K } from "../../../../../src/domain/aiAgents/knowledge/Rrf.js"

describe("reciprocal rank fusion", () => {
  it("sums 1 / (k + rank) over the rankings an item is in", () => {
    const fused = fuse([["a", "b", "c"], ["b", "d"]])
    expect(fused.map((item) => item.key)).toEqual(["b", "a", "d", "c"])
    expect(fused[0]!.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    expect(fused[1]!.score).toBeCloseTo(1 / (RRF_K + 1))
    expect(fused[2]!.score).toBeCloseTo(1 / (RRF_K + 2))
  })

  it("normalizes against first place in every ranking; ties keep first-seen order", () => {
    const fused = fuse([["a", "b"], ["a", "c"]])
    expect(fused[0]).toMatchObject({ key: "a", normalized: 1 })
    expect(fused.map((item) => item.key)).toEqual(["a", "b", "c"])
    expect(fused[1]!.normalized).toBeCloseTo((RRF_K + 1) / (RRF_K + 2) / 2)
  })

  it("counts an item once per ranking, takes any k, and fuses nothing to nothing", () => {
    expect(fuse([["a", "a", "b"]], 0).map((item) => [item.key, item.score])).toEqual([["a", 1], ["b", 0.5]])
    expect(fuse([])).toEqual([])
    expect(fuse([[], []])).toEqual([])
  })
})
