/**
 * Admission control at the HTTP edge, before authentication or reading a
 * body, so that a refusal costs a node next to nothing:
 *
 * - the node's outer bound: it handles at most `PARLEY_MAX_REQUESTS_IN_FLIGHT`
 *   requests at once and answers the next one `503 Overloaded` (with
 *   `Retry-After`) at once;
 * - a turn's request (editors' and visitors' turns) is refused the same way
 *   while the node already runs all the turns it admits. Refused later, after
 *   authentication, body parsing and decoding, each refusal cost a fair share
 *   of a turn, and a node offered twice its capacity spent its time refusing.
 *
 * Health and metrics are exempt: a saturated node must still say so to its
 * balancer and its scraper.
 *
 * On a node's own server both are decided at its front door
 * (`frontDoorAdmission`, see `FrontDoor.ts`), before the request becomes an
 * Effect: a request let in there holds its permit and, for a turn, room in
 * the turns gate, and the middleware only hands that room to the turn. Where
 * there is no door (a test's server), the middleware decides alone.
 */
import type { HttpApp, HttpServerResponse } from "@effect/platform"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import type * as FindMyWay from "find-my-way-ts"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Overloaded } from "../../domain/HttpErrors.js"
import type { Admission, DoorPass } from "../../services/Admission.js"
import type { Guard } from "../FrontDoor.js"
import { jsonError } from "../JsonError.js"
import { type Route, routeMatcher } from "../RouteTable.js"
import { EXPOSED_HEADERS, isPublicRuntime } from "./PublicCors.js"
import { metricsFor } from "./RequestObservability.js"
import { API_POLICY, HSTS, isApi } from "./SecurityHeaders.js"

/** The endpoints (group and name) that send a turn through the turns gate (`TurnSender`). */
const turnEndpoints: ReadonlyArray<string> = ["runtime.sendTurn", "publicRuntime.sendTurn"]

const exempt = (path: string): boolean => path.startsWith("/health/") || path === "/metrics"

/** A request's declared route (its template) and whether it sends a turn, read against the declared routes. */
const makeRouteOf = (routes: ReadonlyArray<Route>) => {
  // Matched as the API's router matches (trailing slashes, case), or `…/turns/` would pass the gate.
  const router = routeMatcher<{ readonly template: string; readonly isTurn: boolean }>()
  for (const route of routes) {
    router.on(route.method, route.path as FindMyWay.PathInput, {
      template: route.path,
      isTurn: turnEndpoints.includes(`${route.group}.${route.name}`)
    })
  }
  return (method: string, path: string) => router.find(method, path)?.handler
}

/**
 * The answer to a refusal. Each gate refuses with one message of its own, so
 * each answer is encoded once and then served as it is: under overload,
 * refusals are most of what a node answers. Keyed by the message, not the
 * error: a failure inside a span reaches here as a new wrapper of the error
 * (carrying the span) every time, and a cache keyed by it kept every refused
 * request's span and response alive.
 */
const refusals = new Map<string, HttpServerResponse.HttpServerResponse>()
const refused = (overloaded: Overloaded) => {
  const known = refusals.get(overloaded.message)
  return known !== undefined
    ? Effect.succeed(known)
    : Effect.tap(
      jsonError(Overloaded, overloaded),
      (response) => Effect.sync(() => refusals.set(overloaded.message, response))
    )
}

/** The requests let in at the front door, by their Node request object, with what each holds. */
const doorPasses = new WeakMap<object, DoorPass>()

export const requestAdmission = (admission: Admission, routes: ReadonlyArray<Route>) => {
  const routeOf = makeRouteOf(routes)
  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const pass = doorPasses.get(request.source as object)
      if (pass !== undefined) return pass.turn === undefined ? app : admission.withTurnReservation(pass.turn)(app)
      const path = request.url.split("?")[0]!
      if (exempt(path)) return app
      const route = routeOf(request.method, path)
      // The app's own outcome travels as an `Exit`, so only the gates' refusals are answered here.
      const admitted = route?.isTurn === true
        ? Effect.zipRight(admission.checkTurn, Effect.exit(app))
        : Effect.exit(app)
      return admission.admitRequest(admitted).pipe(
        Effect.matchEffect({
          // Refused before the router ran: name the route for the request's metrics and log line, as the router would.
          onFailure: (overloaded) =>
            route === undefined
              ? refused(overloaded)
              : Effect.zipRight(Effect.annotateCurrentSpan("http.route", route.template), refused(overloaded)),
          onSuccess: (exit) => exit
        })
      )
    })
}

/** A refusal's body as the app encodes it, once per gate message. */
const refusalBodies = new Map<string, Buffer>()
const refusalBody = (overloaded: Overloaded): Buffer => {
  let body = refusalBodies.get(overloaded.message)
  if (body === undefined) {
    body = Buffer.from(JSON.stringify(Schema.encodeSync(Overloaded)(overloaded)))
    refusalBodies.set(overloaded.message, body)
  }
  return body
}

/**
 * The front door's part of admission control (see `FrontDoor.ts`): the same
 * gates, deciding as the request arrives. A request let in takes its permit
 * there (and a turn's request, room for its turn), given back when its
 * response is done or its connection closes; the middleware above finds it.
 * A refusal is the same `503 Overloaded` as the middleware's, with the
 * headers the app's other middleware would add to it (`Retry-After`, the
 * security headers, a public route's CORS headers), counted in the same
 * metrics under the route's template. What it does not get: a span, an
 * `x-trace-id` and a log line, which under overload would cost more than the
 * refusal (the refusals are in `parley_admission_rejected_total` and the
 * request metrics). Preflights, health and metrics pass untouched, as the
 * middleware lets them pass.
 */
export const frontDoorAdmission = (
  admission: Admission,
  routes: ReadonlyArray<Route>,
  options: { readonly https: boolean }
): Guard => {
  const routeOf = makeRouteOf(routes)
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url ?? "/"
    const method = request.method ?? "GET"
    const path = url.split("?")[0]!
    if (method === "OPTIONS" || exempt(path)) return false
    const started = performance.now()
    const route = routeOf(method, path)
    const pass = admission.enterNow(route?.isTurn === true, Date.now())
    if (!(pass instanceof Overloaded)) {
      doorPasses.set(request, pass)
      response.once("close", () => {
        pass.leave()
        pass.turn?.cancel()
      })
      return false
    }
    const body = refusalBody(pass)
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": body.length,
      "retry-after": String(Math.max(1, Math.ceil(pass.retryAfterSeconds))),
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-security-policy": API_POLICY
    }
    if (options.https) headers["strict-transport-security"] = HSTS
    if (isApi(url)) headers["cache-control"] = "no-store"
    const origin = request.headers.origin
    if (origin !== undefined && isPublicRuntime(url)) {
      headers["access-control-allow-origin"] = origin
      headers["access-control-expose-headers"] = EXPOSED_HEADERS
      headers["vary"] = "Origin"
    }
    response.writeHead(503, headers)
    response.end(body)
    const metrics = metricsFor(method, route?.template ?? "unmatched", "503")
    metrics.requests.unsafeUpdate(1, [])
    metrics.duration.unsafeUpdate((performance.now() - started) / 1000, [])
    return true
  }
}
