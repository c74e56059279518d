/**
 * A small least-recently-used cache: at most `capacity` in weight (by
 * default each entry weighs 1, so `capacity` entries), a read moves its
 * entry to the most recent end, a write past the capacity drops the least
 * recently used (never the entry just written). A `Map` keeps insertion
 * order, which is recency order here. Every operation is synchronous, so
 * fibers sharing one need no lock.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>()
  private weight = 0

  constructor(readonly capacity: number, private readonly weigh: (value: V) => number = () => 1) {}

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
    const known = this.entries.get(key)
    if (known !== undefined) {
      this.entries.delete(key)
      this.weight -= this.weigh(known)
    }
    this.entries.set(key, value)
    this.weight += this.weigh(value)
    while (this.weight > this.capacity && this.entries.size > 1) {
      const [oldest, dropped] = this.entries.entries().next().value!
      this.entries.delete(oldest)
      this.weight -= this.weigh(dropped)
    }
  }

  get size(): number {
    return this.entries.size
  }
}
