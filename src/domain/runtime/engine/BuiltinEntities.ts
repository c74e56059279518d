/**
 * The built-in entity kinds a slot can extract from a message without any
 * model, and the email check a question shares with them. Each finder
 * answers the first occurrence in the text, normalised: a number as a JSON
 * number read in the locale, an email lower-cased, a URL as written (without
 * trailing punctuation), a phone number as `+` and digits (7 to 15 of them),
 * a date as `YYYY-MM-DD` (an ISO date-time such as `2024-03-05T10:30` as
 * written), a date-time slot as its date, its time of day (`HH:MM`), or both
 * (`YYYY-MM-DDTHH:MM`).
 */
import { parseDate } from "./DateParsing.js"
import type { LocaleFormats } from "./LocaleFormats.js"
import { parseNumber } from "./NumberParsing.js"
import { findTime, findWrittenDate } from "./WrittenDates.js"

const LOCAL = String.raw`[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_\x60{|}~-]+)*`
const DOMAIN = String.raw`(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,63}`
const EMAIL = new RegExp(`^${LOCAL}@${DOMAIN}$`, "u")
const EMAIL_IN_TEXT = new RegExp(`${LOCAL}@${DOMAIN}`, "u")
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>"]+/i
const PHONE_IN_TEXT = /\+?\(?\d[\d\s().-]{5,22}\d/
const NUMBER_IN_TEXT = /(?<![\p{L}\d])[+\-\u2212]?(?:\d[\d.,'’\u00A0\u202F]*\d|\d)(?![\d\p{L}])/gu
const DATE_TIME_IN_TEXT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?/
const DATE_IN_TEXT = /\b(?:\d{4}([-/.])\d{1,2}\1\d{1,2}|\d{1,2}([-/.])\d{1,2}\2(?:\d{4}|\d{2}))\b/g

/** Whether `text` is an email address (at most 254 characters). */
export const isEmail = (text: string): boolean => text.length <= 254 && EMAIL.test(text)

/** The first email address in `text`, lower-cased. */
export const findEmail = (text: string): string | undefined => EMAIL_IN_TEXT.exec(text)?.[0].toLowerCase()

/** The first URL in `text`. */
export const findUrl = (text: string): string | undefined => URL_IN_TEXT.exec(text)?.[0].replace(/[.,;:!?)\]]+$/, "")

/** The first phone number in `text`, as `+` (when written) and its digits. */
export const findPhone = (text: string): string | undefined => {
  const match = PHONE_IN_TEXT.exec(text)?.[0]
  if (match === undefined) return undefined
  const digits = match.replace(/\D/g, "")
  if (digits.length < 7 || digits.length > 15) return undefined
  return `${match.startsWith("+") ? "+" : ""}${digits}`
}

/** The first number in `text` that reads as one in the locale. */
export const findNumber = (text: string, formats: LocaleFormats): number | undefined => {
  for (const match of text.matchAll(NUMBER_IN_TEXT)) {
    const value = parseNumber(match[0], formats)
    if (value !== undefined) return value
  }
  return undefined
}

/** The first date in `text` (an ISO date-time as written, any other date as `YYYY-MM-DD`). */
export const findDate = (text: string, formats: LocaleFormats): string | undefined => {
  const dateTime = DATE_TIME_IN_TEXT.exec(text)?.[0]
  if (dateTime !== undefined && parseDate(dateTime.slice(0, 10), formats) !== undefined) return dateTime
  for (const match of text.matchAll(DATE_IN_TEXT)) {
    const date = parseDate(match[0], formats)
    if (date !== undefined) return date
  }
  return findWrittenDate(text)
}

/**
 * What a `datetime` slot finds: an ISO date-time as written; else the first
 * date and the first time of day in `text` (`5 March 2025 at 7pm` is
 * `2025-03-05T19:00`), or whichever of the two it has.
 */
export const findDateTime = (text: string, formats: LocaleFormats): string | undefined => {
  const date = findDate(text, formats)
  if (date !== undefined && date.includes("T")) return date
  // Dates are taken out first, so that `05.03.2025` is not read as a time.
  const time = findTime(text.replace(DATE_IN_TEXT, " "))
  if (date === undefined) return time
  return time === undefined ? date : `${date}T${time}`
}
