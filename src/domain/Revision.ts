import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The optimistic-concurrency counter of a draft: it starts at 1 and grows by
 * one with every write. A write may send `If-Match: <revision>`.
 */
export const Revision = Schema.Number.pipe(Schema.int(), Schema.positive(), Schema.brand("Revision"))
export type Revision = typeof Revision.Type

/**
 * A revision as `If-Match` carries it: bare (`5`) or as the entity tag
 * RFC 9110 writes (`"5"`, weak `W/"5"`), which standard clients send.
 */
const RevisionTag = Schema.transform(
  Schema.String.pipe(Schema.pattern(/^(?:W\/)?(?:"\d{1,15}"|\d{1,15})$/)),
  Schema.NumberFromString,
  { strict: true, decode: (tag) => tag.replace(/^(?:W\/)?"?|"$/g, ""), encode: (digits) => digits }
)

/** Headers of a draft write: an optional `If-Match` with the revision the client last read (`5` or `"5"`). */
export const IfMatchHeaders = Schema.Struct({
  "if-match": Schema.optional(
    RevisionTag.pipe(
      Schema.compose(Revision),
      Schema.annotations({ description: "The revision this write is based on (`5` or `\"5\"`); a stale one is a 409" })
    )
  )
})

/** The draft changed since the revision the client sent. */
export class RevisionConflict extends Schema.TaggedError<RevisionConflict>()(
  "RevisionConflict",
  { expected: Schema.Number, actual: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The draft changed since the given revision" })
) {}
