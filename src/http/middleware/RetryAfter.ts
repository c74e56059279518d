/**
 * A 429 or a 503 tells the client when to come back: the `retryAfterSeconds`
 * of the error (`RateLimited`, `Overloaded`) is repeated in the standard
 * `Retry-After` header, on whichever route answered it.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"

const retryAfterOf = (response: HttpServerResponse.HttpServerResponse): number | undefined => {
  if ((response.status !== 429 && response.status !== 503) || response.body._tag !== "Uint8Array") return undefined
  try {
    const body = JSON.parse(new TextDecoder().decode(response.body.body)) as { retryAfterSeconds?: unknown }
    return typeof body.retryAfterSeconds === "number" ? Math.max(1, Math.ceil(body.retryAfterSeconds)) : undefined
  } catch {
    return undefined
  }
}

export const retryAfter = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_request, response) => {
      const seconds = retryAfterOf(response)
      return Effect.succeed(
        seconds === undefined ? response : HttpServerResponse.setHeader(response, "retry-after", String(seconds))
      )
    }),
    app
  )
