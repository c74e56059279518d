import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"

/**
 * The response for a typed error outside the API's own encoding (unknown
 * routes, unreadable bodies, time-outs, faults): the same JSON shape, `_tag`,
 * `message` and typed fields, with the status the error class declares.
 */
export const jsonError = <A, I>(
  schema: Schema.Schema<A, I, never>,
  error: A,
  headers?: Record<string, string>
): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Schema.encode(schema)(error).pipe(
    Effect.flatMap((body) => HttpServerResponse.json(body, { status: HttpApiSchema.getStatusError(schema) })),
    Effect.map((response) => (headers ? HttpServerResponse.setHeaders(response, headers) : response)),
    Effect.orDie
  )
