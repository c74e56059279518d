import { describe, expect, it } from "@effect/vitest"
import { LruCache } from "../../../src/domain/LruCache.js"

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

  it("with weights, keeps at most its capacity in weight and never drops the entry just written", () => {
    const cache = new LruCache<string>(10, (value) => value.length)
    cache.set("a", "xxxx")
    cache.set("b", "yyyy")
    cache.set("a", "xxxxx") // replaced: weighs 5 now, and is the most recent
    expect(cache.size).toBe(2)
    cache.set("c", "zz") // 4 + 5 + 2 > 10: "b" goes
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["xxxxx", undefined, "zz"])
    cache.set("big", "w".repeat(20)) // heavier than the capacity: kept alone
    expect([cache.size, cache.get("big")?.length, cache.get("a")]).toEqual([1, 20, undefined])
  })
})
