import { Model } from "@effect/sql"
import { Schema } from "effect"

/** This database's installation: made on the first start of a node, counted on each one after. */
export class Installation extends Model.Class<Installation>("Installation")({
  id: Schema.UUID,
  createdAt: Schema.DateTimeUtcFromDate,
  starts: Schema.Number.pipe(Schema.int(), Schema.positive()),
  lastStartedAt: Schema.DateTimeUtcFromDate,
  lastVersion: Schema.String
}) {}
