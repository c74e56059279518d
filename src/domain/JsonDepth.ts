/**
 * How deep a JSON text nests, found by scanning its characters rather than
 * parsing it. Schema decoding and the formatting of its errors recurse once
 * per level, so a body of 100,000 `[` overflowed the stack (a 500) before
 * authentication; a request body nests at most `MAX_JSON_DEPTH` levels.
 */

/** The most levels of arrays and objects a JSON request body may nest; Parley's own bodies use fewer than 10. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/**
 * Whether `text` opens more than `max` arrays and objects inside one another,
 * brackets in strings aside. One pass, no allocation; it stops at the first
 * level too deep, so even a megabyte of `{"a":` is answered at once.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}
