/**
 * The features a text is read by: its words, its pairs of neighbouring words
 * (so `card arrive` differs from `arrive card`), and the character n-grams of
 * each word padded with a space each side (so `refunds` is near `refund`,
 * and a typo costs little). Words are compared as `Tokens` normalises them:
 * case, accents and punctuation do not count.
 *
 * A feature is a 32-bit FNV-1a hash of its kind and characters, computed
 * without building its string, so reading a text allocates little; two
 * features sharing a hash (about one pair in a vocabulary of 100,000) are
 * read as one.
 */
import { tokens } from "../runtime/engine/Tokens.js"

/** Which n-grams to read; the defaults are the ones the benchmark measured best. */
export interface FeatureOptions {
  readonly wordBigrams: boolean
  /** The shortest and longest character n-gram. */
  readonly charMin: number
  readonly charMax: number
}

export const defaultFeatureOptions: FeatureOptions = { wordBigrams: true, charMin: 2, charMax: 5 }

const OFFSET = 0x811c9dc5
const PRIME = 0x01000193
const WORD = 1
const BIGRAM = 2
const CHARS = 3
const SPACE = 32

const mix = (hash: number, code: number): number => Math.imul(hash ^ code, PRIME)

const hashWord = (seed: number, word: string, into = mix(OFFSET, seed)): number => {
  let hash = into
  for (let index = 0; index < word.length; index++) hash = mix(hash, word.charCodeAt(index))
  return hash
}

/** The counts of a text's features, keyed by feature hash (added to `into`, when given). */
export const countFeatures = (
  text: string,
  options: FeatureOptions = defaultFeatureOptions,
  into?: Map<number, number>
): Map<number, number> => {
  const counts = into ?? new Map<number, number>()
  const add = (feature: number) => counts.set(feature, (counts.get(feature) ?? 0) + 1)
  const words = tokens(text)
  let previous = "<s>"
  for (const word of words) {
    add(hashWord(WORD, word))
    if (options.wordBigrams) add(hashWord(BIGRAM, word, mix(hashWord(BIGRAM, previous), SPACE)))
    previous = word
    // The n-grams of ` word `: from each start, extend one character at a time.
    const length = word.length + 2
    const codeAt = (index: number) => index === 0 || index === length - 1 ? SPACE : word.charCodeAt(index - 1)
    for (let from = 0; from + options.charMin <= length; from++) {
      let hash = mix(OFFSET, CHARS)
      for (let size = 1; size <= options.charMax && from + size <= length; size++) {
        hash = mix(hash, codeAt(from + size - 1))
        if (size >= options.charMin) add(hash >>> 0)
      }
    }
  }
  if (options.wordBigrams && words.length > 0) add(hashWord(BIGRAM, "</s>", mix(hashWord(BIGRAM, previous), SPACE)))
  return counts
}
