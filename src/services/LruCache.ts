/**
 * A small least-recently-used cache: at most `capacity` entries, a read moves
 * its entry to the most recent end, a write past the capacity drops the
 * least recently used. A `Map` keeps insertion order, which is recency order
 * here. Not shared between fibers' turns in any way that needs a lock: every
 * operation is synchronous.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>()

  constructor(readonly capacity: number) {}

  /** The value under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  /** Stores `value` as the most recently used, dropping the least recently used past the capacity. */
  set(key: string, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
  }

  get size(): number {
    return this.entries.size
  }
}
