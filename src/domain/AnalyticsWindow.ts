/**
 * The window of an analytics report (`?days=N`): the last N UTC calendar days,
 * today included. Assistants and AI agents report over the same window, with
 * the same day strings in their daily series.
 */
import { Schema } from "effect"

/** A UTC calendar day, `YYYY-MM-DD`. */
export const UtcDay = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}$/),
  Schema.annotations({ identifier: "UtcDay", description: "A UTC day, YYYY-MM-DD", examples: ["2025-01-31"] })
)

/** How many days an analytics report covers: 1 to 365. */
export const AnalyticsDays = Schema.Number.pipe(Schema.int(), Schema.between(1, 365))

/** The query of an analytics report: `days` back, today included (1 to 365, default 30). */
export const AnalyticsParams = Schema.Struct({
  days: Schema.optionalWith(
    Schema.NumberFromString.pipe(
      Schema.compose(AnalyticsDays),
      Schema.annotations({ description: "How many UTC days back, today included (1 to 365)" })
    ),
    { default: () => 30 }
  )
})

/** The window a report covers: its length and its first and last day (UTC, both included). */
export const analyticsWindowFields = {
  days: AnalyticsDays,
  from: UtcDay,
  to: UtcDay
}
