/**
 * Dates written with an English month name (`5 March 2025`, `5th of Mar
 * 2025`, `March 5, 2025`, `Mar. 5 2025`) and times of day (`10:30`,
 * `10:30:15`, `7 pm`, `7.30pm`, `noon`, `midnight`), as `BuiltinEntities`
 * finds them in a message. A date needs its year (without one, which year
 * is meant depends on today, which extraction does not know); a time is
 * `HH:MM` or `HH:MM:SS` on a 24-hour clock.
 */
import { isoDate } from "./DateParsing.js"

const MONTH = String
  .raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?`
const DAY_FIRST = new RegExp(String.raw`\b${DAY}(?:\s+of)?\s+${MONTH},?\s+(\d{4})\b`, "gi")
const MONTH_FIRST = new RegExp(String.raw`\b${MONTH}\s+${DAY},?\s+(\d{4})\b`, "gi")
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

const monthNumber = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1

/** The first real date written with a month name in `text`, as `YYYY-MM-DD`. */
export const findWrittenDate = (text: string): string | undefined => {
  const found: Array<{ readonly at: number; readonly date: string }> = []
  for (const match of text.matchAll(DAY_FIRST)) {
    const date = isoDate(Number(match[3]), monthNumber(match[2]!), Number(match[1]))
    if (date !== undefined) found.push({ at: match.index, date })
  }
  for (const match of text.matchAll(MONTH_FIRST)) {
    const date = isoDate(Number(match[3]), monthNumber(match[1]!), Number(match[2]))
    if (date !== undefined) found.push({ at: match.index, date })
  }
  return found.sort((a, b) => a.at - b.at)[0]?.date
}

const CLOCK = /(?<![\d:.])(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?!\d)(?:\s*([ap])\.?m\b\.?)?/gi
const HOUR_ONLY = /(?<![\d:.])(\d{1,2})\s*([ap])\.?m\b\.?/gi
const WORDS = /\b(noon|midday|midnight)\b/gi

const pad = (value: number) => String(value).padStart(2, "0")

const clock = (hour: number, minute: number, second: number | undefined, half: string | undefined) => {
  if (minute > 59 || (second !== undefined && second > 59)) return undefined
  let hours = hour
  if (half !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hours = hour % 12 + (half.toLowerCase() === "p" ? 12 : 0)
  } else if (hour > 23) return undefined
  return `${pad(hours)}:${pad(minute)}${second === undefined ? "" : `:${pad(second)}`}`
}

/**
 * The first time of day in `text`, `HH:MM` (or `HH:MM:SS`). `10.30` reads
 * as a time only with am or pm after it (alone it is as likely a number).
 */
export const findTime = (text: string): string | undefined => {
  const found: Array<{ readonly at: number; readonly time: string }> = []
  for (const match of text.matchAll(CLOCK)) {
    if (match[0].includes(".") && match[4] === undefined && !match[0].includes(":")) continue
    const time = clock(
      Number(match[1]),
      Number(match[2]),
      match[3] === undefined ? undefined : Number(match[3]),
      match[4]
    )
    if (time !== undefined) found.push({ at: match.index, time })
  }
  for (const match of text.matchAll(HOUR_ONLY)) {
    const time = clock(Number(match[1]), 0, undefined, match[2])
    if (time !== undefined) found.push({ at: match.index, time })
  }
  for (const match of text.matchAll(WORDS)) {
    found.push({ at: match.index, time: match[1]!.toLowerCase() === "midnight" ? "00:00" : "12:00" })
  }
  return found.sort((a, b) => a.at - b.at)[0]?.time
}
