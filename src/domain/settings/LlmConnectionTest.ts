import { Schema } from "effect"
import { LlmConnection, LlmModelName, LlmProvider } from "./LlmConnection.js"
import { LlmSettingSource } from "./LlmInfo.js"

/**
 * A round trip to try: a proposed connection (not saved), or else the saved
 * primary or fallback (or, with none saved, the one in force); unknown
 * fields are refused.
 */
export const LlmConnectionTestRequest = Schema.Struct({
  connection: Schema.optional(LlmConnection),
  /** Which saved connection to try when no `connection` is given. */
  target: Schema.optionalWith(Schema.Literal("primary", "fallback"), { default: () => "primary" }),
  /** The prompt sent; by default a short one asking for a one-word answer. */
  prompt: Schema.optional(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000)).annotations({
      examples: ["Reply with the single word: ready."]
    })
  )
}).annotations({ identifier: "LlmConnectionTestRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * Why a round trip failed, as far as the provider's answer tells; and, before
 * any answer, a host name that does not resolve, a TLS handshake that fails,
 * an address the outbound rule refuses (loopback, private, metadata: the SSRF
 * rule of HTTP tools), a provider Parley cannot call, or (replaying a
 * recording) a request that was never recorded.
 */
export const LlmFailureKind = Schema.Literal(
  "authentication",
  "model-not-found",
  "rate-limited",
  "quota-exceeded",
  "bad-request",
  "timeout",
  "network",
  "host-not-found",
  "tls",
  "outbound-refused",
  "unsupported",
  "not-recorded",
  "provider-error"
)
export type LlmFailureKind = typeof LlmFailureKind.Type

/** A provider's failure: its kind, the provider's message (credentials stripped) and HTTP status when there was one. */
export const LlmFailure = Schema.Struct({
  kind: LlmFailureKind,
  message: Schema.String.pipe(Schema.maxLength(2000)),
  httpStatus: Schema.NullOr(Schema.Number.pipe(Schema.int()))
}).annotations({ identifier: "LlmFailure" })

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/**
 * The outcome of a test round trip. A provider's failure is an answer
 * (`ok: false` with `error`), not a 502: the test exists to report it.
 */
export const LlmConnectionTestResult = Schema.Struct({
  ok: Schema.Boolean,
  /** Where the tried connection came from: `proposed` in the request, or the source of the one in force. */
  source: Schema.Union(Schema.Literal("proposed"), LlmSettingSource),
  provider: LlmProvider,
  /** The model that was asked for. */
  model: LlmModelName,
  /** The model the provider says answered (e.g. a dated snapshot); null when it did not say or failed. */
  reportedModel: Schema.NullOr(Schema.String.pipe(Schema.maxLength(200))),
  latencyMs: Count,
  usage: Schema.NullOr(Schema.Struct({ inputTokens: Count, outputTokens: Count })),
  /** The start of the model's reply, at most 500 characters. */
  reply: Schema.NullOr(Schema.String.pipe(Schema.maxLength(500))),
  error: Schema.NullOr(LlmFailure)
}).annotations({ identifier: "LlmConnectionTestResult" })
export type LlmConnectionTestResult = typeof LlmConnectionTestResult.Type
