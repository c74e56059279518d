/**
 * Turns whatever the API itself could not encode into the typed JSON error
 * shape: unknown routes (404, or 405 with `Allow`), unreadable or oversized
 * bodies, multipart ones included (400, 413), multipart text Parley cannot
 * store (400 `InvalidText`, raised while the parts are read), a database
 * that cannot answer for now (503 `NotReady` with `Retry-After`: a cancelled
 * statement, a lost connection), and server faults (500 with the trace id,
 * the cause only in the log). A client abort stays an abort.
 */
import type { HttpApp } from "@effect/platform"
import { HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import {
  InternalError,
  MalformedBody,
  MethodNotAllowed,
  NotReady,
  PayloadTooLarge,
  RouteNotFound
} from "../../domain/HttpErrors.js"
import { InvalidText } from "../../domain/StorableText.js"
import { jsonError } from "../JsonError.js"
import { databaseUnavailable } from "./DatabaseUnavailable.js"

const isPlatformError = (tag: string) => (u: unknown): u is { readonly _tag: string; readonly cause?: unknown } =>
  typeof u === "object" && u !== null && "_tag" in u && u._tag === tag

const isRouteNotFound = isPlatformError("RouteNotFound")
const isRequestError = isPlatformError("RequestError")
const isMultipartError = isPlatformError("MultipartError")

/**
 * A multipart body whose Content-Type has no usable boundary: the parser reports it by emitting an error
 * before anyone listens, which Node throws as an `Error` wrapping it (`context`), a defect of the read.
 */
const boundaryMissing = (problem: unknown): boolean =>
  problem instanceof Error &&
  (problem as { readonly context?: { readonly _tag?: unknown } }).context?._tag === "InvalidBoundary"

const bodyExceeded = (error: { readonly cause?: unknown }) =>
  error.cause instanceof Error && error.cause.message === "maxBytes exceeded"

/** Wrap an app so that every outcome it can have is a typed JSON response. */
export const errorResponses = (options: {
  readonly allowedMethods: (url: string) => ReadonlyArray<string>
  readonly maxBodyBytes: (url: string) => number
}) =>
<E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R | HttpServerRequest.HttpServerRequest> =>
  Effect.catchAllCause(app, (cause) =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = request.url.split("?")[0]!
      const problems = [...Cause.failures(cause), ...Cause.defects(cause)]
      if (problems.length === 0 && Cause.isInterruptedOnly(cause)) {
        return yield* Effect.failCause(cause as Cause.Cause<never>)
      }

      const notFound = problems.find(isRouteNotFound)
      if (notFound !== undefined) {
        const allowed = options.allowedMethods(request.url)
        if (allowed.length > 0) {
          return yield* jsonError(
            MethodNotAllowed,
            new MethodNotAllowed({
              method: request.method,
              path,
              allowed,
              message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`
            }),
            { allow: allowed.join(", ") }
          )
        }
        return yield* jsonError(
          RouteNotFound,
          new RouteNotFound({ method: request.method, path, message: `No route for ${request.method} ${path}` })
        )
      }

      const unreadable = problems.find(isRequestError)
      if (unreadable !== undefined) {
        if (bodyExceeded(unreadable)) {
          const limit = options.maxBodyBytes(path)
          return yield* jsonError(
            PayloadTooLarge,
            new PayloadTooLarge({ limitBytes: limit, message: `The request body exceeds ${limit} bytes` })
          )
        }
        const reason = unreadable.cause instanceof Error ? unreadable.cause.message : "the body could not be read"
        return yield* jsonError(MalformedBody, new MalformedBody({ message: `Malformed request body: ${reason}` }))
      }

      const invalidText = problems.find((problem) => problem instanceof InvalidText)
      if (invalidText !== undefined) return yield* jsonError(InvalidText, invalidText)

      const multipart = (problems.find(isMultipartError) as { readonly reason?: string } | undefined) ??
        (problems.some(boundaryMissing) ? { reason: "InvalidBoundary" } : undefined)
      if (multipart !== undefined) {
        if (multipart.reason === "BodyTooLarge" || multipart.reason === "FileTooLarge") {
          const limit = options.maxBodyBytes(path)
          return yield* jsonError(
            PayloadTooLarge,
            new PayloadTooLarge({ limitBytes: limit, message: `The request body exceeds ${limit} bytes` })
          )
        }
        return yield* jsonError(
          MalformedBody,
          new MalformedBody({ message: `Malformed multipart body (${multipart.reason ?? "unreadable"})` })
        )
      }

      const database = problems.map(databaseUnavailable).find((detail) => detail !== undefined)
      if (database !== undefined) {
        yield* Effect.logWarning(`The database could not answer a request (${database}); answered 503`, cause)
        return yield* jsonError(
          NotReady,
          new NotReady({
            message: "The database could not answer in time; retry after Retry-After " +
              "(with the same Idempotency-Key where the route takes one)",
            checks: { database: { ok: false, detail: database } }
          }),
          { "retry-after": "1" }
        )
      }

      const span = yield* Effect.option(Effect.currentSpan)
      const traceId = Option.match(span, { onNone: () => "", onSome: (span) => span.traceId })
      yield* Effect.logError("Unhandled failure while handling a request", cause)
      return yield* jsonError(
        InternalError,
        new InternalError({ traceId, message: `An unexpected error occurred; quote trace id ${traceId}` })
      )
    }))
