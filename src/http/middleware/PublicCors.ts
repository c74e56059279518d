/**
 * Cross-origin access to the public runtime (`/v1/public/runtime/...`) and
 * to live AI agents (`/v1/public/ai-agents/...`): a chat widget on a
 * customer's site calls them from that site's origin with an `Authorization`
 * or `Idempotency-Key` header and a JSON body, which need a CORS preflight.
 *
 * A preflight carries no token, so it cannot know the deployment or agent: it
 * is answered for any origin (it grants nothing by itself), and the real
 * request is then checked against the deployment's (or agent's embed) allowed
 * origins (403 otherwise). Every answer of these routes, errors
 * included, names the caller's origin in `Access-Control-Allow-Origin`, so a
 * widget can read why it was refused. No cookies are involved, so credentials
 * are never allowed. Other routes get no CORS headers at all.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

const PREFIXES = ["/v1/public/runtime/", "/v1/public/ai-agents/"]

const ALLOWED_HEADERS = "authorization, content-type, idempotency-key, last-event-id, traceparent"
export const EXPOSED_HEADERS = "retry-after, x-trace-id"
/** How long a browser may keep a preflight's answer. */
const MAX_AGE_SECONDS = "600"

export const isPublicRuntime = (url: string): boolean => {
  const path = url.split("?")[0]!
  return PREFIXES.some((prefix) => url.startsWith(prefix) || path === prefix.slice(0, -1))
}

export const publicCors = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (!isPublicRuntime(request.url)) return app
    const origin = request.headers["origin"]
    if (request.method === "OPTIONS") {
      return Effect.succeed(HttpServerResponse.empty({
        status: 204,
        headers: {
          "access-control-allow-origin": origin ?? "*",
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": MAX_AGE_SECONDS,
          "vary": "Origin"
        }
      }))
    }
    if (origin === undefined) return app
    return Effect.zipRight(
      HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, {
          "access-control-allow-origin": origin,
          "access-control-expose-headers": EXPOSED_HEADERS,
          "vary": "Origin"
        }))
      ),
      app
    )
  })
