/**
 * The node's outer bound: it handles at most `PARLEY_MAX_REQUESTS_IN_FLIGHT`
 * requests at once, and answers the next one `503 Overloaded` (with
 * `Retry-After`) at once, before authenticating it or reading its body, so a
 * flood costs a node microseconds per request instead of a queued fiber and a
 * buffered body each. Health and metrics are exempt: a saturated node must
 * still say so to its balancer and its scraper.
 */
import type { HttpApp } from "@effect/platform"
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { Overloaded } from "../../domain/HttpErrors.js"
import type { Admission } from "../../services/Admission.js"
import { jsonError } from "../JsonError.js"

const exempt = (url: string): boolean => {
  const path = url.split("?")[0]!
  return path.startsWith("/health/") || path === "/metrics"
}

export const requestAdmission =
  (admission: Admission) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      exempt(request.url)
        ? app
        // The app's own outcome travels as an `Exit`, so only the gate's refusal is answered here.
        : admission.admitRequest(Effect.exit(app)).pipe(
          Effect.matchEffect({
            onFailure: (overloaded) => jsonError(Overloaded, overloaded),
            onSuccess: (exit) => exit
          })
        ))
