/**
 * Blocked topics by keywords: each topic is a phrase matched as whole words,
 * ignoring case and accents, a word also matching its plural (`refund`
 * matches `refunds`). Text and phrases are split into words of letters and
 * digits, so punctuation and spacing between the words do not matter.
 * Linear in the text times the phrase's length.
 */

/** The words of `text`, lower-cased, accents removed. */
export const wordsOf = (text: string): Array<string> =>
  text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

const sameWord = (word: string, wanted: string) => word === wanted || word === `${wanted}s` || word === `${wanted}es`

/** The first topic whose words occur in a row among `words`, or undefined. */
export const topicIn = (words: ReadonlyArray<string>, topics: ReadonlyArray<string>): string | undefined => {
  for (const topic of topics) {
    const wanted = wordsOf(topic)
    if (wanted.length === 0) continue
    for (let at = 0; at + wanted.length <= words.length; at++) {
      let all = true
      for (let offset = 0; offset < wanted.length && all; offset++) all = sameWord(words[at + offset]!, wanted[offset]!)
      if (all) return topic
    }
  }
  return undefined
}
