/**
 * A seeded pseudo-random generator (mulberry32), so that training shuffles
 * the same way every time: the same intents give the same model.
 */

/** A generator of numbers in [0, 1) from a 32-bit seed. */
export const seededRandom = (seed: number): () => number => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Shuffles `items` in place (Fisher–Yates) with `random`. */
export const shuffle = <A>(items: Array<A>, random: () => number): Array<A> => {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    const held = items[index]!
    items[index] = items[other]!
    items[other] = held
  }
  return items
}

/** A 32-bit FNV-1a hash of a string, to seed from content. */
export const hashString = (text: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}
