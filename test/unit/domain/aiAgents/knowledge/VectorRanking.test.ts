import { describe, expect, it } from "@effect/vitest"
import { RRF_K } from "../../../../../src/domain/aiAgents/knowledge/Rrf.js"
import {
  cosine,
  fromBytes,
  fuseHybrid,
  nearest,
  normalized,
  toBytes
} from "../../../../../src/domain/aiAgents/knowledge/VectorRanking.js"

describe("vector ranking", () => {
  it("cosine: 1 for one direction, -1 opposite, 0 orthogonal, zero or mismatched vectors", () => {
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1)
    expect(cosine([1, 0], [-3, 0])).toBeCloseTo(-1)
    expect(cosine([1, 0], [0, 5])).toBe(0)
    expect(cosine([3, 4], [4, 3])).toBeCloseTo(24 / 25)
    expect(cosine([0, 0], [1, 1])).toBe(0)
    expect(cosine([1, 2], [1, 2, 3])).toBe(0)
    expect(cosine([], [])).toBe(0)
  })

  it("normalises to unit length (zero stays zero) and stores float32 bytes that read back the same", () => {
    const unit = normalized([3, 4])
    expect([...unit]).toEqual([Math.fround(0.6), Math.fround(0.8)])
    expect([...normalized([0, 0, 0])]).toEqual([0, 0, 0])
    const vector = normalized([0.1, -2, 3.5, 1e-3])
    const bytes = toBytes(vector)
    expect(bytes.byteLength).toBe(16)
    expect([...fromBytes(bytes)]).toEqual([...vector])
    // Read back from inside a larger buffer at an odd offset, as a database driver may hand them over.
    const pooled = new Uint8Array(21)
    pooled.set(bytes, 3)
    expect([...fromBytes(pooled.subarray(3, 19))]).toEqual([...vector])
    // Little-endian whatever the machine: 1.0 is 00 00 80 3f.
    expect([...toBytes(new Float32Array([1]))]).toEqual([0, 0, 0x80, 0x3f])
  })

  it("nearest: best cosine first, ties in the order given, other lengths left out, at most `limit`", () => {
    const query = normalized([1, 0])
    const items = [
      { id: "orthogonal", vector: normalized([0, 1]) },
      { id: "close", vector: normalized([1, 0.1]) },
      { id: "exact", vector: normalized([2, 0]) },
      { id: "other model", vector: normalized([1, 0, 0]) },
      { id: "close again", vector: normalized([1, 0.1]) },
      { id: "opposite", vector: normalized([-1, 0]) }
    ]
    const ranked = nearest(query, items, 10)
    expect(ranked.map(({ item }) => item.id)).toEqual(["exact", "close", "close again", "orthogonal", "opposite"])
    expect(ranked[0]!.similarity).toBeCloseTo(1)
    expect(ranked.at(-1)!.similarity).toBeCloseTo(-1)
    expect(nearest(query, items, 2).map(({ item }) => item.id)).toEqual(["exact", "close"])
    expect(nearest(query, [], 5)).toEqual([])
  })

  it("fuses the lexical and vector rankings by RRF: found by both first, then by rank, ties lexical first", () => {
    const fused = fuseHybrid(["a", "b", "c"], ["d", "b", "a"])
    // a: 1/61 + 1/63, b: 2/62, d: 1/61, c: 1/63.
    expect(fused.map((hit) => hit.key)).toEqual(["a", "b", "d", "c"])
    expect(fused[0]!.score).toBeCloseTo((1 / (RRF_K + 1) + 1 / (RRF_K + 3)) / (2 / (RRF_K + 1)))
    // First in both rankings is a perfect 1.
    expect(fuseHybrid(["x", "y"], ["x"])[0]).toEqual({ key: "x", score: 1 })
    // A chunk only the vectors found (lexical search missed it) still ranks; an empty lexical side is fine.
    expect(fuseHybrid([], ["v", "w"]).map((hit) => hit.key)).toEqual(["v", "w"])
    expect(fuseHybrid(["l"], []).map((hit) => hit.key)).toEqual(["l"])
    // Equal fused scores keep the lexical order.
    expect(fuseHybrid(["p", "q"], ["q", "p"]).map((hit) => hit.key)).toEqual(["p", "q"])
  })
})
