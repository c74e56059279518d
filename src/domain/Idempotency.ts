import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * The client's key for one turn or one run start, scoped to its session or
 * chain: a retried request with the same key returns the stored result and
 * acts once.
 */
export const IdempotencyKey = Schema.String.pipe(
  Schema.pattern(/^[\x21-\x7e]{1,200}$/),
  Schema.annotations({
    identifier: "IdempotencyKey",
    description: "1 to 200 visible ASCII characters, unique per turn of a session (or run start of a chain)",
    examples: ["turn-0001"]
  })
)

/** The headers of a request that acts once per key: a turn, a run start or a resume. */
export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(IdempotencyKey)
})

/** The idempotency key was already used in this session with a different request body. */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "IdempotencyKeyReused",
  { idempotencyKey: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The key was used with a different body" })
) {}
