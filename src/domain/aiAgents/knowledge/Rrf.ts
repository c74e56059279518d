/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each ranking
 * gives an item `1 / (k + rank)` (rank from 1), and an item's fused score is
 * the sum over the rankings it appears in. It needs no comparable scores:
 * it is how the lexical ranking and a vector ranking fuse once an embeddings
 * provider is configured (DESIGN.md §7; not yet). The lexical signals
 * themselves fuse by score (`LexicalRanking.fuseLexical`), which did better
 * than RRF on BANKING77's held-out split.
 */

/** The constant of the original paper, which damps the weight of the very first ranks. */
export const RRF_K = 60

/** An item and its fused score; `normalized` is the score over the best possible (first in every ranking), 0 to 1. */
export interface Fused<Key> {
  readonly key: Key
  readonly score: number
  readonly normalized: number
}

/**
 * The items of `rankings` (each best first, keys compared with `===`; a key
 * repeated in one ranking counts at its first place only) by
 * fused score, best first; ties keep the order in which items were first
 * seen, ranking by ranking.
 */
export const fuse = <Key>(rankings: ReadonlyArray<ReadonlyArray<Key>>, k: number = RRF_K): Array<Fused<Key>> => {
  const scores = new Map<Key, number>()
  for (const ranking of rankings) {
    const seen = new Set<Key>()
    for (const key of ranking) {
      if (seen.has(key)) continue
      seen.add(key)
      scores.set(key, (scores.get(key) ?? 0) + 1 / (k + seen.size))
    }
  }
  const best = rankings.length / (k + 1)
  return [...scores.entries()]
    .map(([key, score], order) => ({ key, score, normalized: best === 0 ? 0 : score / best, order }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ key, normalized, score }) => ({ key, score, normalized }))
}
