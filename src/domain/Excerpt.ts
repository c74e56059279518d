/**
 * Cutting user text to a length without breaking a character. A cut never
 * falls between the two halves of a surrogate pair (an emoji, a rare CJK
 * character): the half left behind is a lone surrogate, which PostgreSQL
 * refuses in jsonb and a text column stores as U+FFFD. Lengths are UTF-16 code
 * units, what `String.length` and `Schema.maxLength` count, so a cut text
 * still fits the schema it feeds; a cut may therefore keep one unit less.
 */

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

/** At most `max` code units of `text`, cut on a code point boundary. */
export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text
  if (max <= 0) return ""
  return text.slice(0, isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max)
}

/**
 * At most `max` code units of `text` for display: when it is cut, trailing
 * blanks are dropped and `…` (one of the `max`) marks the cut.
 */
export const excerpt = (text: string, max: number): string =>
  text.length <= max ? text : max < 1 ? "" : `${truncate(text, max - 1).trimEnd()}…`
