/**
 * The features a text is read by: its words, its pairs of neighbouring words
 * (so `card arrive` differs from `arrive card`), and the character n-grams of
 * each word (so `refunds` is near `refund`, and a typo costs little). Words
 * are compared as `Tokens` normalises them: case, accents and punctuation do
 * not count.
 */
import { tokens } from "../runtime/engine/Tokens.js"

/** Which n-grams to read; the defaults are the ones the benchmark measured best. */
export interface FeatureOptions {
  readonly wordBigrams: boolean
  /** The shortest and longest character n-gram (inside a word padded with a space each side). */
  readonly charMin: number
  readonly charMax: number
}

export const defaultFeatureOptions: FeatureOptions = { wordBigrams: true, charMin: 2, charMax: 5 }

/** The raw counts of a text's features, keyed by feature (a word `w`, a bigram `b` or a character n-gram `c`). */
export const countFeatures = (text: string, options: FeatureOptions = defaultFeatureOptions): Map<string, number> => {
  const counts = new Map<string, number>()
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1)
  const words = tokens(text)
  let previous = "<s>"
  for (const word of words) {
    add(`w ${word}`)
    if (options.wordBigrams) add(`b ${previous} ${word}`)
    previous = word
    const padded = [...` ${word} `]
    for (let size = options.charMin; size <= options.charMax; size++) {
      for (let index = 0; index + size <= padded.length; index++) add(`c ${padded.slice(index, index + size).join("")}`)
    }
  }
  if (options.wordBigrams && words.length > 0) add(`b ${previous} </s>`)
  return counts
}
