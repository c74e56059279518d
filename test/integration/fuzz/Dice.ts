/**
 * The fuzz suite's source of choices: fast-check's generator, seeded, behind
 * the handful of questions the request builders ask. One case is drawn from
 * one `fc.gen()` value, so the seed alone decides every request of a run.
 */
import type { GeneratorValue } from "fast-check"
import fc from "fast-check"

/** Seeded choices for one generated request. */
export interface Dice {
  /** An integer in [min, max]. */
  readonly int: (min: number, max: number) => number
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  readonly uuid: () => string
  /** A string the pattern matches, when fast-check can build one (it cannot for lookaround or backreferences). */
  readonly matching: (pattern: string) => string | undefined
  /** A printable string of `min` to `max` characters. */
  readonly text: (min: number, max: number) => string
}

export const diceOf = (g: GeneratorValue): Dice => ({
  int: (min, max) => g(fc.integer, { min, max }),
  chance: (p) => g(fc.integer, { min: 0, max: 9_999 }) < p * 10_000,
  pick: (items) => items[g(fc.integer, { min: 0, max: items.length - 1 })]!,
  uuid: () => g(fc.uuid),
  matching: (pattern) => {
    let regex: RegExp
    try {
      regex = new RegExp(pattern, "u")
    } catch {
      return undefined
    }
    try {
      return g(fc.stringMatching, regex, { size: "xsmall" })
    } catch {
      return undefined
    }
  },
  text: (min, max) => g(fc.string, { minLength: min, maxLength: max })
})

/** FNV-1a of a text: a route's own seed offset, so adding a route leaves the other routes' cases as they were. */
export const hashOf = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** `count` cases of `make`, drawn deterministically from `seed`. */
export const casesOf = <A>(seed: number, count: number, make: (dice: Dice) => A): ReadonlyArray<A> =>
  count <= 0 ? [] : fc.sample(fc.gen().map((g) => make(diceOf(g))), { seed, numRuns: count })
