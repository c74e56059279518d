/**
 * Why an outbound HTTP call got no usable answer. Each names the host (never
 * a header, a query or a body: those may carry secrets).
 */
import { Schema } from "effect"

/** The reasons a call is refused before it connects. */
export const OutboundRefusalReason = Schema.Literal(
  "loopback",
  "private",
  "shared",
  "link-local",
  "multicast",
  "broadcast",
  "unspecified",
  "unique-local",
  "reserved",
  "host-not-allowed",
  "scheme-not-allowed"
)
export type OutboundRefusalReason = typeof OutboundRefusalReason.Type

/** The address rule (or the call's own list of hosts) refused the destination; nothing was sent. */
export class OutboundRefused extends Schema.TaggedError<OutboundRefused>()("OutboundRefused", {
  host: Schema.String,
  /** The refused address, when the host resolved to one. */
  address: Schema.NullOr(Schema.String),
  reason: OutboundRefusalReason,
  message: Schema.String
}) {}

/** The host name did not resolve. */
export class OutboundHostNotFound extends Schema.TaggedError<OutboundHostNotFound>()("OutboundHostNotFound", {
  host: Schema.String,
  message: Schema.String
}) {}

/** No complete answer within the call's time-out (redirects included). */
export class OutboundTimedOut extends Schema.TaggedError<OutboundTimedOut>()("OutboundTimedOut", {
  host: Schema.String,
  timeoutMs: Schema.Number,
  message: Schema.String
}) {}

/** The answer's body is larger than the call accepts; reading stopped at the limit. */
export class OutboundResponseTooLarge extends Schema.TaggedError<OutboundResponseTooLarge>()(
  "OutboundResponseTooLarge",
  {
    host: Schema.String,
    limitBytes: Schema.Number,
    status: Schema.Number,
    headers: Schema.Record({ key: Schema.String, value: Schema.String }),
    /** The first `limitBytes` bytes of the body. */
    head: Schema.Uint8ArrayFromSelf,
    message: Schema.String
  }
) {}

/** More redirects than the call follows (a loop, or a long chain). */
export class OutboundTooManyRedirects extends Schema.TaggedError<OutboundTooManyRedirects>()(
  "OutboundTooManyRedirects",
  { host: Schema.String, limit: Schema.Number, message: Schema.String }
) {}

/** The connection failed or broke (refused, reset, TLS, a malformed answer). */
export class OutboundConnectionFailed extends Schema.TaggedError<OutboundConnectionFailed>()(
  "OutboundConnectionFailed",
  { host: Schema.String, message: Schema.String }
) {}

/** Any reason an outbound call failed. */
export type OutboundFailure =
  | OutboundRefused
  | OutboundHostNotFound
  | OutboundTimedOut
  | OutboundResponseTooLarge
  | OutboundTooManyRedirects
  | OutboundConnectionFailed
