/**
 * The words of a text as the built-in classifier and list entities compare
 * them: case, accents and punctuation do not count (`Café!` and `cafe` are
 * one word), so neither does the way a keyboard or phone wrote them.
 */

/** Lower case without accents (compatibility decomposition, marks dropped). */
export const normalise = (text: string): string => text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()

/** The words of `text`: runs of letters and digits after normalising. */
export const tokens = (text: string): ReadonlyArray<string> =>
  normalise(text).split(/[^\p{L}\p{N}]+/u).filter((token) => token.length > 0)
