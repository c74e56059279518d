import { Model } from "@effect/sql"
import { Schema } from "effect"

/**
 * A date-time column the server sets (an expiry, a last use): a `Date` in the
 * database, an ISO 8601 string in JSON, never accepted from a client body.
 */
export const DateTimeField = Model.Field({
  select: Model.DateTimeFromDate,
  insert: Model.DateTimeFromDate,
  update: Model.DateTimeFromDate,
  json: Schema.DateTimeUtc
})

/** A server-set date-time column that may be empty (`null` in the database and in JSON). */
export const NullableDateTimeField = Model.Field({
  select: Schema.NullOr(Model.DateTimeFromDate),
  insert: Schema.NullOr(Model.DateTimeFromDate),
  update: Schema.NullOr(Model.DateTimeFromDate),
  json: Schema.NullOr(Schema.DateTimeUtc)
})
