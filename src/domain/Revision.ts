import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The optimistic-concurrency counter of a draft: it starts at 1 and grows by
 * one with every write. A write may send `If-Match: <revision>`.
 */
export const Revision = Schema.Number.pipe(Schema.int(), Schema.positive(), Schema.brand("Revision"))
export type Revision = typeof Revision.Type

/** Headers of a draft write: an optional `If-Match` with the revision the client last read. */
export const IfMatchHeaders = Schema.Struct({
  "if-match": Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.compose(Revision),
      Schema.annotations({ description: "The revision this write is based on; a stale one is a 409" })
    )
  )
})

/** The draft changed since the revision the client sent. */
export class RevisionConflict extends Schema.TaggedError<RevisionConflict>()(
  "RevisionConflict",
  { expected: Schema.Number, actual: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The draft changed since the given revision" })
) {}
