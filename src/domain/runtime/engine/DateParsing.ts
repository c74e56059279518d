/**
 * Reading a calendar date as people type one, to `YYYY-MM-DD`. The year
 * first (`2024-03-05`, `2024/3/5`, `2024.03.05`) reads the same everywhere;
 * with the year last (`05/03/2024`, `5.3.24`, `05-03-2024`) the locale
 * decides between day first and month first (see `LocaleFormats`). A
 * two-digit year is 2000–2069 for `00`–`69` and 1970–1999 for `70`–`99`.
 * Impossible dates (`2023-02-29`, `31/04/2024`, month 13, day 0, year 0) are
 * not dates.
 */
import type { LocaleFormats } from "./LocaleFormats.js"

const YEAR_FIRST = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/
const YEAR_LAST = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})$/

/** The last day of a month (1–12); `setUTCFullYear` keeps years 0–99 as they are, unlike `Date.UTC`. */
const daysIn = (year: number, month: number): number => {
  const probe = new Date(0)
  probe.setUTCFullYear(year, month, 0)
  return probe.getUTCDate()
}

const pad = (value: number, width: number) => String(value).padStart(width, "0")

/** `YYYY-MM-DD` for a real date, else `undefined`. */
export const isoDate = (year: number, month: number, day: number): string | undefined => {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return undefined
  if (!Number.isInteger(month) || month < 1 || month > 12) return undefined
  if (!Number.isInteger(day) || day < 1) return undefined
  return day <= daysIn(year, month) ? `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` : undefined
}

const fullYear = (digits: string): number => {
  const value = Number(digits)
  if (digits.length === 4) return value
  return value < 70 ? 2000 + value : 1900 + value
}

/** The date `text` writes in this locale, as `YYYY-MM-DD`, or `undefined`. */
export const parseDate = (text: string, formats: LocaleFormats): string | undefined => {
  const trimmed = text.trim()
  const first = YEAR_FIRST.exec(trimmed)
  if (first !== null) return isoDate(Number(first[1]), Number(first[3]), Number(first[4]))
  const last = YEAR_LAST.exec(trimmed)
  if (last === null) return undefined
  const [a, b] = [Number(last[1]), Number(last[3])]
  const [month, day] = formats.dateOrder === "mdy" ? [a, b] : [b, a]
  return isoDate(fullYear(last[4]!), month, day)
}
