/**
 * The maps the bundle's Effect keeps a fiber's services in (`mapCopies.mjs`
 * rewrites Effect to use these). A `Context` is a Map of every service a
 * node built (about 120), and Effect adds one service by copying the whole
 * Map: every span, scope, transaction and provided value of a turn does, and
 * each copy lives as long as the code it was added for. On a node at its
 * turns bound those tables were a third of what the collector found alive
 * and had to copy at each scavenge (`npm run bench:allocation`,
 * docs/OPERATIONS.md "Less held per turn").
 *
 * Here adding a service to a large map makes a `LayeredMap`: the large map,
 * shared and never changed, under a small layer of its own entries. Adding
 * to a layered map copies only its layer; a layer that grows past
 * `MAX_LAYER` entries is flattened into a new plain map. A layered map is a
 * Map (a subclass): it answers `get`, `has`, `size` and every way of iterating
 * exactly as the copy it stands for would, in the same order (a key already
 * in the base keeps its place, a new key comes after), and changing it
 * (`set`, `delete`, `clear`) changes only it.
 *
 * Only code that reads a Map's internal table directly (`Map.prototype.get.call`,
 * and Node's `util.inspect`, which shows the layer alone) sees the layer
 * without its base; neither Effect nor its packages do.
 */

/** A map under this many entries is copied as before: a layer would save nothing. */
export const MIN_LAYERED_SIZE = 16
/** A layer of more entries than this is flattened into a plain map when added to. */
export const MAX_LAYER = 24

const ownSize = Object.getOwnPropertyDescriptor(Map.prototype, "size").get
const ownGet = Map.prototype.get
const ownHas = Map.prototype.has
const ownSet = Map.prototype.set
const ownDelete = Map.prototype.delete
const ownClear = Map.prototype.clear
const ownForEach = Map.prototype.forEach
const ownEntries = Map.prototype.entries
const ownKeys = Map.prototype.keys

/** A base for a flattened layered map: never changed. */
const EMPTY = new Map()

export class LayeredMap extends Map {
  /**
   * `base` is a plain Map that nobody changes any more (a context's). The
   * layer starts empty; `size` is the base's.
   */
  constructor(base) {
    super()
    this.base = base
    this.count = base.size
  }

  get size() {
    return this.count
  }

  has(key) {
    return ownHas.call(this, key) || this.base.has(key)
  }

  get(key) {
    const value = ownGet.call(this, key)
    return value !== undefined || ownHas.call(this, key) ? value : this.base.get(key)
  }

  set(key, value) {
    if (!this.has(key)) this.count++
    ownSet.call(this, key, value)
    return this
  }

  delete(key) {
    if (!this.has(key)) return false
    this.flatten()
    this.count--
    return ownDelete.call(this, key)
  }

  clear() {
    this.base = EMPTY
    this.count = 0
    ownClear.call(this)
  }

  forEach(callback, thisArg) {
    this.base.forEach((value, key) => {
      callback.call(thisArg, ownHas.call(this, key) ? ownGet.call(this, key) : value, key, this)
    })
    ownForEach.call(this, (value, key) => {
      if (!this.base.has(key)) callback.call(thisArg, value, key, this)
    })
  }

  *entries() {
    for (const [key, value] of this.base) {
      yield [key, ownHas.call(this, key) ? ownGet.call(this, key) : value]
    }
    for (const entry of ownEntries.call(this)) {
      if (!this.base.has(entry[0])) yield entry
    }
  }

  *keys() {
    yield* this.base.keys()
    for (const key of ownKeys.call(this)) {
      if (!this.base.has(key)) yield key
    }
  }

  *values() {
    for (const [key, value] of this.base) yield ownHas.call(this, key) ? ownGet.call(this, key) : value
    for (const [key, value] of ownEntries.call(this)) {
      if (!this.base.has(key)) yield value
    }
  }

  [Symbol.iterator]() {
    return this.entries()
  }

  /** The layer's own entries, how many. */
  get layerSize() {
    return ownSize.call(this)
  }

  /** Moves every entry into the layer, in order, and drops the base (before a `delete`). */
  flatten() {
    if (this.base === EMPTY) return
    const entries = [...this.entries()]
    this.base = EMPTY
    ownClear.call(this)
    for (const [key, value] of entries) ownSet.call(this, key, value)
  }
}

/** A plain copy of `source` (of any Map), made with `forEach`: the same entries in the same order. */
export const parleyCopyMap = (source) => {
  const copy = new Map()
  source.forEach((value, key) => {
    copy.set(key, value)
  })
  return copy
}

/**
 * A map that holds what `source` holds and may be changed without changing
 * it: a layered map over a large one, a plain copy of a small one.
 */
export const parleyLayerOver = (source) => {
  if (source instanceof LayeredMap) {
    if (source.base === EMPTY || source.layerSize >= MAX_LAYER) return new LayeredMap(parleyCopyMap(source))
    const layered = new LayeredMap(source.base)
    layered.count = source.count
    ownForEach.call(source, (value, key) => ownSet.call(layered, key, value))
    return layered
  }
  return source.size >= MIN_LAYERED_SIZE ? new LayeredMap(source) : parleyCopyMap(source)
}

/** `source` and `key` set to `value`, in a new map (Effect's `Context.add`). */
export const parleyAddService = (source, key, value) => parleyLayerOver(source).set(key, value)

/**
 * `source` with every entry of `other` set, in a new map (Effect's
 * `Context.merge`): layered when `other` is small, a plain copy otherwise.
 */
export const parleyMerge = (source, other) => {
  const merged = other.size < MIN_LAYERED_SIZE ? parleyLayerOver(source) : parleyCopyMap(source)
  other.forEach((value, key) => {
    merged.set(key, value)
  })
  return merged
}

/**
 * Whether `a` and `b` hold the same keys with `equals` values (Effect's
 * `Equal` of two contexts, which Effect asks each time a fiber's context is
 * set). Two layered maps over the same base differ only in their layers.
 */
export const parleySameEntries = (a, b, equals) => {
  if (a.size !== b.size) return false
  const matches = (key) => b.has(key) && equals(a.get(key), b.get(key))
  if (a instanceof LayeredMap && b instanceof LayeredMap && a.base === b.base) {
    let same = true
    ownForEach.call(a, (_, key) => {
      if (same && !matches(key)) same = false
    })
    ownForEach.call(b, (_, key) => {
      if (same && !(a.has(key) && matches(key))) same = false
    })
    return same
  }
  let same = true
  a.forEach((_, key) => {
    if (same && !matches(key)) same = false
  })
  return same
}
