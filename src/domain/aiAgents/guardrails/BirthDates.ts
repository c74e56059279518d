/**
 * Dates of birth: a full date (day, month and year, in figures or with the
 * month's name) a few words after "born", "DOB", "birthday" or "date of
 * birth", or any full date at `high`.
 */
import { rangesOf, saysBefore, type Sensitivity, type TextRange } from "./TextRange.js"

const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?"
const DAY = "(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?"
const YEAR = "(?:1[89]\\d\\d|20\\d\\d)"
const DATE = new RegExp(
  "(?<![\\w/.-])(?:" + [
    `\\d{1,2}[/.-]\\d{1,2}[/.-](?:\\d{4}|\\d{2})`,
    `${YEAR}[/.-](?:0?[1-9]|1[0-2])[/.-](?:0?[1-9]|[12]\\d|3[01])`,
    `${DAY}(?: of)? ${MONTH},? ${YEAR}`,
    `${MONTH} ${DAY},? ${YEAR}`
  ].join("|") + ")(?![\\w/-]|\\.\\d)",
  "gi"
)
const BIRTH = /\b(?:born|birth|birthday|dob|née|geboren)\b|\bd\.o\.b\b|\bdate of birth|birth ?date/i

const plausible = (date: string): boolean => {
  const figures = date.split(/[/.-]/)
  if (figures.length !== 3 || !figures.every((figure) => /^\d+$/.test(figure))) return true
  const [a, b] = figures.map(Number) as [number, number, number]
  return figures[0]!.length === 4 || ((a <= 12 || b <= 12) && a > 0 && b > 0)
}

/** Dates of birth. */
export const birthDates = (text: string, sensitivity: Sensitivity): Array<TextRange> =>
  rangesOf(
    text,
    DATE,
    (match) => plausible(match[0]) && (sensitivity === "high" || saysBefore(text, match.index, BIRTH, 40))
  )
