/**
 * Reading a number the way people type one in a locale. Grouping is accepted
 * only where it is well placed (`1,234,567`, `1.234`, `1 234`, `1'234`, and
 * the Indian `12,34,567`). When both `.` and `,` occur, the last one is the
 * decimal separator (`1,234.5`, `1.234,5`), whatever the locale; a separator
 * that occurs twice is grouping. A lone separator is decimal (`3,5` and `3.5`
 * are 3.5 everywhere) except in the one ambiguous shape, one to three digits,
 * the separator and exactly three digits (`1,000`, `1.000`), which follows the
 * locale: grouping where the locale groups with that character (a thousand in
 * `en` for `1,000`, in `de` for `1.000`), decimal otherwise. Signs (`+`, `-`,
 * `−`) are accepted; exponents, currency signs, percent and words are not.
 */
import type { LocaleFormats } from "./LocaleFormats.js"

const SPACE = /^[\s\u00A0\u202F]$/
const GROUP_ONLY = /^[\s\u00A0\u202F'’]$/
const DIGITS = /^\d+$/
const isDigit = (char: string) => char >= "0" && char <= "9"

/** Western (`1,234,567`) or Indian (`12,34,567`) grouping, split by one separator. */
const wellGrouped = (groups: ReadonlyArray<string>): boolean => {
  if (groups.length < 2 || groups.some((group) => !DIGITS.test(group))) return false
  const first = groups[0]!
  const middle = groups.slice(1, -1)
  if (first.length > 3 || groups[groups.length - 1]!.length !== 3) return false
  return middle.every((group) => group.length === 3) || (first.length <= 2 && middle.every((g) => g.length === 2))
}

const decimalSeparator = (body: string, formats: LocaleFormats): string | undefined => {
  const separators = [...body].filter((char) => !isDigit(char))
  const last = separators[separators.length - 1]
  if (last === undefined || GROUP_ONLY.test(last)) return undefined
  if (separators.filter((char) => char === last).length > 1) return undefined
  if (separators.some((char) => char !== last)) return last
  const [integer, fraction] = body.split(last) as [string, string]
  const ambiguous = integer.length >= 1 && integer.length <= 3 && fraction.length === 3
  return ambiguous && last !== formats.decimal && last === formats.group ? undefined : last
}

const integerDigits = (integer: string): string | undefined => {
  if (integer === "" || DIGITS.test(integer)) return integer
  const separator = [...integer].find((char) => !isDigit(char))!
  const groups = SPACE.test(separator) ? integer.split(/[\s\u00A0\u202F]/) : integer.split(separator)
  return wellGrouped(groups) ? groups.join("") : undefined
}

/** The number `text` writes in this locale, or `undefined` when it is not one. */
export const parseNumber = (text: string, formats: LocaleFormats): number | undefined => {
  const match = /^([+\-\u2212]?)\s*([\d.,\s\u00A0\u202F'’]+)$/.exec(text.trim())
  if (match === null) return undefined
  const body = match[2]!.trim()
  if (!/\d/.test(body)) return undefined
  const decimal = decimalSeparator(body, formats)
  const cut = decimal === undefined ? body.length : body.lastIndexOf(decimal)
  const fraction = body.slice(cut + 1)
  if (decimal !== undefined && !DIGITS.test(fraction)) return undefined
  const digits = integerDigits(body.slice(0, cut))
  if (digits === undefined) return undefined
  const value = Number(`${digits === "" ? "0" : digits}${decimal === undefined ? "" : `.${fraction}`}`)
  if (!Number.isFinite(value)) return undefined
  return match[1] !== "" && match[1] !== "+" && value !== 0 ? -value : value
}
