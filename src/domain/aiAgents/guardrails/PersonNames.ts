/**
 * Person names by heuristics: a known given name (`GivenNames`) or a word
 * right after a cue ("my name is", "Dear", "Mrs.") starts a name, which runs
 * on over initials, particles ("van", "de") and capitalised words on the
 * same line; a frequent surname counts alone in mid-sentence; and a word
 * already found as part of a name counts again elsewhere in the text. At
 * `high`, two or three capitalised words standing alone count too (places
 * and firms as well: "Porto Alegre"). At `low`, names need a capital. Words are
 * scanned once, left to right, so the time is linear in the text.
 */
import { AMBIGUOUS_GIVEN_NAMES, GIVEN_NAMES, SURNAMES } from "./GivenNames.js"
import type { Sensitivity, TextRange } from "./TextRange.js"

interface Word {
  readonly start: number
  readonly end: number
  readonly key: string
  readonly capitalised: boolean
  readonly initial: boolean
}

const WORD = /[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*\.?/gu

const keyOf = (text: string): string => text.replace(/\.$/, "").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

const wordsOf = (text: string): Array<Word> => {
  const words: Array<Word> = []
  WORD.lastIndex = 0
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    const raw = match[0]
    const initial = /^\p{Lu}\.?$/u.test(raw)
    const end = match.index + raw.length - (raw.endsWith(".") && !initial ? 1 : 0)
    words.push({ start: match.index, end, key: keyOf(raw), capitalised: /^\p{Lu}/u.test(raw), initial })
  }
  return words
}

/** Capitalised words that are not names: pronouns, articles, calendar words, places in an address, firms. */
const NOT_NAMES = new Set(
  `i a an the this that these those it he she we they you me my your our his her their its mine yours
  is are was were be been am do does did have has had will would shall should can could may might must not no yes
  and or but if so as at by for from in into of on to up with about after before over under than then there here
  what when where which who whom whose why how hi hello hey dear thanks thank please sorry ok okay well oh
  mr mrs ms miss mx dr prof sir madam mister lord lady saint st
  monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september
  october november december today tomorrow yesterday
  street road avenue lane drive court place square boulevard way terrace apt apartment suite unit box floor
  inc ltd llc corp co company group bank university college school hospital church club team orchestra
  systems solutions technologies technology capital partners consulting services insurance industries labs
  international global associates holdings foundation institute agency media network software health
  north south east west new old great little big good best first last next all any each every some one two three
  god christmas easter internet email phone`.split(/\s+/)
)

const PARTICLES = new Set([
  "van",
  "von",
  "de",
  "da",
  "di",
  "del",
  "della",
  "der",
  "den",
  "la",
  "le",
  "du",
  "dos",
  "das",
  "bin",
  "ibn",
  "al",
  "ter",
  "ten"
])

const STRONG_CUE =
  /(?:\bmy name is|\bname is|\bname's|\bnames? ?[:?]|\bi am called|\bcall me|\bi'm|\bi am|\bthis is|\bnamed|\bcalled|\bsigned|\b(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam|dear|hi|hello|hey)\.?,?|\b(?:regards|thanks|cheers|sincerely|best),)[:,]?\s*$/i
// Weaker cues: a full name (two words or more) after them counts.
const WEAK_CUE = /\b(?:by|with|ask|tell|under|to a|assistant to|tribute to|producer|directed by|written by)[:,]?\s*$/i

const sentenceStart = (text: string, word: Word): boolean =>
  /(?:^|[.!?:;>"]\s*|\n\s*)$/.test(text.slice(Math.max(0, word.start - 4), word.start))

const isAllCaps = (text: string, word: Word): boolean => !/\p{Ll}/u.test(text.slice(word.start, word.end))

// Two or three capitalised words between words that are not: "... to Yuri Bulgakov –", not "The Big Three Killed".
const standsAlone = (text: string, words: ReadonlyArray<Word>, first: number, last: number): boolean => {
  if (last - first > 2) return false
  for (let k = first; k <= last; k++) if (isAllCaps(text, words[k]!) && !words[k]!.initial) return false
  const before = words[first - 1]
  const after = words[last + 1]
  const beforeOk = before === undefined || !before.capitalised || NOT_NAMES.has(before.key) ||
    !sameLine(text, before, words[first]!)
  const afterOk = after === undefined || !after.capitalised || !sameLine(text, words[last]!, after)
  return beforeOk && afterOk
}

const sameLine = (text: string, left: Word, right: Word): boolean =>
  /^[ \t]{1,3}$/.test(text.slice(left.end, right.start))

const knownGiven = (word: Word, sensitivity: Sensitivity): boolean =>
  GIVEN_NAMES.has(word.key) && (word.capitalised || sensitivity !== "low")

/** Person names. */
export const personNames = (text: string, sensitivity: Sensitivity): Array<TextRange> => {
  const words = wordsOf(text)
  const found: Array<TextRange> = []
  const named = new Set<string>()
  const surnameLike = (word: Word) => word.capitalised && !NOT_NAMES.has(word.key) && !word.initial

  const extend = (first: number): number => {
    let last = first
    for (let next = first + 1; next < words.length && next <= first + 4; next++) {
      const word = words[next]!
      if (!sameLine(text, words[next - 1]!, word)) break
      if (word.initial || surnameLike(word)) last = next
      else if (PARTICLES.has(word.key) && words[next + 1] !== undefined && surnameLike(words[next + 1]!)) continue
      else break
    }
    return last
  }

  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (NOT_NAMES.has(word.key) || word.initial) continue
    const before = text.slice(Math.max(0, word.start - 16), word.start)
    const last = extend(i)
    const cued = (STRONG_CUE.test(before) || (last > i && WEAK_CUE.test(before))) &&
      (word.capitalised || GIVEN_NAMES.has(word.key) || AMBIGUOUS_GIVEN_NAMES.has(word.key))
    const caps = isAllCaps(text, word) && word.end - word.start > 1
    const given = knownGiven(word, sensitivity) && !caps
    const ambiguous = AMBIGUOUS_GIVEN_NAMES.has(word.key) && word.capitalised
    const surname = SURNAMES.has(word.key) && word.capitalised && !caps && !sentenceStart(text, word)
    const pair = sensitivity === "high" && word.capitalised && last > i && standsAlone(text, words, i, last)
    if (cued || given || surname || pair || (ambiguous && last > i)) {
      found.push({ start: word.start, end: words[last]!.end })
      for (let k = i; k <= last; k++) if (!words[k]!.initial) named.add(words[k]!.key)
      i = last
    }
  }
  if (named.size === 0) return found
  const again: Array<TextRange> = []
  let next = 0
  for (const word of words) {
    while (next < found.length && found[next]!.end <= word.start) next++
    const inside = next < found.length && found[next]!.start <= word.start
    if (!inside && word.capitalised && named.has(word.key)) again.push({ start: word.start, end: word.end })
  }
  return [...found, ...again].sort((a, b) => a.start - b.start)
}
