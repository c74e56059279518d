/** A map under this many entries is copied as before. */
export declare const MIN_LAYERED_SIZE: number
/** A layer of more entries than this is flattened into a plain map when added to. */
export declare const MAX_LAYER: number
/** A Map that is a shared base map under a small layer of its own entries. */
export declare class LayeredMap<K, V> extends Map<K, V> {
  constructor(base: Map<K, V>)
  readonly base: Map<K, V>
  /** The layer's own entries, how many. */
  readonly layerSize: number
  /** Moves every entry into the layer, in order, and drops the base. */
  flatten(): void
}
/** A plain copy of `source`, made with `forEach`. */
export declare const parleyCopyMap: <K, V>(source: Map<K, V>) => Map<K, V>
/** A map that holds what `source` holds and may be changed without changing it. */
export declare const parleyLayerOver: <K, V>(source: Map<K, V>) => Map<K, V>
/** `source` and `key` set to `value`, in a new map. */
export declare const parleyAddService: <K, V>(source: Map<K, V>, key: K, value: V) => Map<K, V>
/** `source` with every entry of `other` set, in a new map. */
export declare const parleyMerge: <K, V>(source: Map<K, V>, other: Map<K, V>) => Map<K, V>
/** Whether `a` and `b` hold the same keys with `equals` values. */
export declare const parleySameEntries: <K, V>(a: Map<K, V>, b: Map<K, V>, equals: (x: V, y: V) => boolean) => boolean
