import { Either } from "effect"
import { MAX_USAGE_BUCKETS, type UsageParams, type UsagePeriod, UsageRangeInvalid } from "./Usage.js"

const DAY = 86_400_000

/** The UTC midnight of a moment's day. */
const dayStart = (millis: number): number => Math.floor(millis / DAY) * DAY

/** The start of the bucket that holds a moment: its UTC day, its week (from Monday) or its month. */
export const bucketStart = (period: UsagePeriod, millis: number): number => {
  const day = dayStart(millis)
  switch (period) {
    case "day":
      return day
    case "week":
      // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
      return day - (((Math.floor(day / DAY) + 3) % 7) * DAY)
    case "month": {
      const date = new Date(day)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
    }
  }
}

/** The start of the bucket after the one starting at `start`. */
export const nextBucket = (period: UsagePeriod, start: number): number => {
  switch (period) {
    case "day":
      return start + DAY
    case "week":
      return start + 7 * DAY
    case "month": {
      const date = new Date(start)
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
    }
  }
}

/** How many buckets a default range holds: 30 days, 12 weeks or 12 months up to now. */
const DEFAULT_BUCKETS: Record<UsagePeriod, number> = { day: 30, week: 12, month: 12 }

/** A usage range widened to whole buckets, with each bucket's `[start, end)` in epoch milliseconds. */
export interface UsageRange {
  readonly period: UsagePeriod
  readonly from: number
  readonly to: number
  readonly buckets: ReadonlyArray<readonly [start: number, end: number]>
}

const invalid = (message: string) => Either.left(new UsageRangeInvalid({ message, maxBuckets: MAX_USAGE_BUCKETS }))

/**
 * The buckets of a usage query at `now`: `from` widened down and `to` up to
 * whole buckets; the default range ends with the bucket holding `now`. An
 * empty or reversed range, or one of more than 400 buckets, is refused.
 */
export const usageRange = (params: UsageParams, now: number): Either.Either<UsageRange, UsageRangeInvalid> => {
  const { period } = params
  const toGiven = params.to === undefined ? undefined : params.to.epochMillis
  const fromGiven = params.from === undefined ? undefined : params.from.epochMillis
  if (fromGiven !== undefined && toGiven !== undefined && fromGiven >= toGiven) {
    return invalid("`from` must be before `to`")
  }
  const lastStart = bucketStart(period, toGiven === undefined ? now : toGiven - 1)
  const to = nextBucket(period, lastStart)
  let from: number
  if (fromGiven === undefined) {
    from = lastStart
    for (let i = 1; i < DEFAULT_BUCKETS[period]; i++) from = bucketStart(period, from - 1)
  } else {
    from = bucketStart(period, fromGiven)
  }
  const buckets: Array<readonly [number, number]> = []
  for (let start = from; start < to; start = nextBucket(period, start)) {
    if (buckets.length === MAX_USAGE_BUCKETS) {
      return invalid(
        `A usage query covers at most ${MAX_USAGE_BUCKETS} ${period}s; narrow the range or widen the period`
      )
    }
    buckets.push([start, nextBucket(period, start)])
  }
  if (buckets.length === 0) return invalid("`from` must be before `to` (and before now when `to` is left out)")
  return Either.right({ period, from, to, buckets })
}

/** The UTC day (`YYYY-MM-DD`) of a moment. */
export const utcDay = (millis: number): string => new Date(millis).toISOString().slice(0, 10)
