/**
 * The arithmetic of an Assistant's analytics report, apart from the database:
 * the window of `days` UTC days ending today, the daily series with every day
 * present (zeros where nothing happened), and the rates (0 when there is
 * nothing to divide by).
 */
import type { AssistantAnalyticsDay } from "./AssistantAnalytics.js"

const DAY_MILLIS = 86_400_000

/** `YYYY-MM-DD` of a UTC instant. */
export const utcDayOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** The window: its first instant (midnight UTC of the first day), first day and last day (today). */
export const windowOf = (nowMillis: number, days: number) => {
  const todayStart = Math.floor(nowMillis / DAY_MILLIS) * DAY_MILLIS
  const start = todayStart - (days - 1) * DAY_MILLIS
  return { start: new Date(start), from: utcDayOf(start), to: utcDayOf(todayStart) }
}

type Day = typeof AssistantAnalyticsDay.Type

/** One entry per day from `from`, `days` of them, oldest first: the counted days, zeros for the others. */
export const fillDays = (from: string, days: number, counted: ReadonlyArray<Day>): ReadonlyArray<Day> => {
  const byDay = new Map(counted.map((day) => [day.day, day]))
  const start = Date.parse(`${from}T00:00:00Z`)
  return Array.from({ length: days }, (_, index) => {
    const day = utcDayOf(start + index * DAY_MILLIS)
    return byDay.get(day) ?? { day, sessions: 0, turns: 0, completed: 0, handedOff: 0, fallbacks: 0 }
  })
}

/** `part / whole`, rounded to four decimals; 0 when `whole` is 0. */
export const rate = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000

/** End outcomes the engine gives a conversation that failed rather than reached an end node. */
export const FAILURE_OUTCOMES = ["dead-end", "loop-limit", "flow-not-runnable"] as const
