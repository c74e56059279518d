import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** A signed request (webhook, provider callback, public ingress) whose signature is missing, wrong, stale or replayed. */
export class InvalidSignature extends Schema.TaggedError<InvalidSignature>()(
  "InvalidSignature",
  {
    /** The signing scheme that was checked, e.g. `standard-webhooks` or `twilio`. */
    scheme: Schema.String,
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 401, description: "The request's signature did not verify" })
) {}
