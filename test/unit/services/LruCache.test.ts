import { describe, expect, it } from "@effect/vitest"
import { LruCache } from "../../../src/services/LruCache.js"

describe("LruCache", () => {
  it("drops the least recently used past its capacity; a read makes an entry recent", () => {
    const cache = new LruCache<number>(2)
    cache.set("a", 1)
    cache.set("b", 2)
    expect(cache.get("a")).toBe(1) // "b" is now the least recent
    cache.set("c", 3)
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([1, undefined, 3, 2])
    cache.set("a", 10) // a write refreshes too
    cache.set("d", 4)
    expect([cache.get("a"), cache.get("c"), cache.get("d")]).toEqual([10, undefined, 4])
  })
})
