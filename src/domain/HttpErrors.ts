/**
 * Errors that any route can answer, independent of the resource it addresses.
 * Each carries its HTTP status, so the contract, the server and the typed
 * client agree on it. Resource-specific errors live next to their resource.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { TraceId } from "./Trace.js"

/** The route is declared in the contract but its area is not built yet. */
export class NotImplemented extends Schema.TaggedError<NotImplemented>()(
  "NotImplemented",
  {
    /** `METHOD /path` of the route, or the name of the missing piece (e.g. `authentication`). */
    route: Schema.String,
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 501, description: "The route is declared but not built yet" })
) {
  static forRoute(route: string): NotImplemented {
    return new NotImplemented({ route, message: `${route} is not implemented yet` })
  }
}

/** The request body is not well-formed (e.g. invalid JSON). */
export class MalformedBody extends Schema.TaggedError<MalformedBody>()(
  "MalformedBody",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 400, description: "The request body could not be parsed" })
) {}

/** A request value passed the schema but breaks a rule of the domain. */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()(
  "ValidationFailed",
  {
    message: Schema.String,
    /** Dotted paths of the offending fields, when known. */
    fields: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
  },
  HttpApiSchema.annotations({ status: 400, description: "The request broke a validation rule" })
) {}

/** No valid credential was presented. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()(
  "Unauthenticated",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 401, description: "Missing or invalid credentials" })
) {}

/** The caller is authenticated but lacks the capability the route needs. */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  {
    message: Schema.String,
    /** The capability that was missing, e.g. `workflow.publish`. */
    capability: Schema.optional(Schema.String)
  },
  HttpApiSchema.annotations({ status: 403, description: "The caller lacks the required capability" })
) {}

/** No route matches the request's method and path. */
export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()(
  "RouteNotFound",
  { method: Schema.String, path: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No such route" })
) {}

/** The path exists but not for this method. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "MethodNotAllowed",
  { method: Schema.String, path: Schema.String, allowed: Schema.Array(Schema.String), message: Schema.String },
  HttpApiSchema.annotations({ status: 405, description: "The path does not accept this method" })
) {}

/** The request body is larger than the route accepts. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  { limitBytes: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 413, description: "The request body is too large" })
) {}

/** The body's media type is not one the route accepts. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  { contentType: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 415, description: "Unsupported content type" })
) {}

/** Too many requests; retry after the given number of seconds (also sent as `Retry-After`). */
export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "RateLimited",
  { retryAfterSeconds: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 429, description: "Rate limited; see Retry-After" })
) {}

/** An upstream provider (LLM, speech, HTTP tool) failed. */
export class UpstreamFailed extends Schema.TaggedError<UpstreamFailed>()(
  "UpstreamFailed",
  { provider: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 502, description: "An upstream provider failed" })
) {}

/** The service is not ready to answer (e.g. the database is unreachable). */
export class NotReady extends Schema.TaggedError<NotReady>()(
  "NotReady",
  {
    message: Schema.String,
    /** Each readiness check by name, with what failed. */
    checks: Schema.optional(
      Schema.Record({
        key: Schema.String,
        value: Schema.Struct({ ok: Schema.Boolean, detail: Schema.optional(Schema.String) })
      })
    )
  },
  HttpApiSchema.annotations({ status: 503, description: "Not ready" })
) {}

/**
 * This node is doing all the work it admits at once and refused more rather
 * than queue it; retry after the given number of seconds (also sent as
 * `Retry-After`), possibly on another node. Nothing of the request was done.
 */
export class Overloaded extends Schema.TaggedError<Overloaded>()(
  "Overloaded",
  { retryAfterSeconds: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 503, description: "Overloaded; nothing was done, retry after Retry-After" })
) {}

/** The handler or an upstream call took longer than its time-out. */
export class Timeout extends Schema.TaggedError<Timeout>()(
  "Timeout",
  { timeoutMillis: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 504, description: "The request timed out" })
) {}

/**
 * A fault of the server, never of the client. Answered with the trace id so
 * an operator can find the logged cause; the cause itself is never sent.
 */
export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  { traceId: TraceId, message: Schema.String },
  HttpApiSchema.annotations({ status: 500, description: "An unexpected server fault" })
) {}
