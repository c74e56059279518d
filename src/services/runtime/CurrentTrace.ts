import { Effect, Option } from "effect"
import * as Crypto from "node:crypto"

/** The trace id a reply carries: the request's (every request is traced), else a fresh one. */
export const currentTraceId = Effect.map(
  Effect.option(Effect.currentSpan),
  (span) => Option.match(span, { onNone: () => Crypto.randomBytes(16).toString("hex"), onSome: (span) => span.traceId })
)
