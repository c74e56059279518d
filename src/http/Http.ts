/**
 * The HTTP server: the contract's routes, the OpenAPI document at
 * `/openapi.json`, the interactive reference at `/docs`, the web chat widget
 * at `/embed/v1/widget.js`, the pages mailed links open, and the middleware
 * every request passes through (outermost first): observability (trace id,
 * metrics, one log line), security headers, `Retry-After` on 429s and 503s,
 * the bound on requests in flight (503 beyond it), typed errors for
 * everything else, the handler time-out, the media types each route reads,
 * text Parley cannot store (refused in the URL, headers and bodies) and the
 * body limits.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { Host, MaxBodyBytes, MaxUploadBytes, Port, PublicUrl, RequestTimeout } from "../config/Settings.js"
import { Admission } from "../services/Admission.js"
import { Api } from "./Api.js"
import { ApiLive } from "./ApiLive.js"
import { referenceRoutes, ReferenceRoutesLive } from "./docs/ReferenceRoutes.js"
import { widgetRoute, WidgetRouteLive } from "./embed/WidgetRoute.js"
import { FrontDoor, frontDoorServer } from "./FrontDoor.js"
import { errorResponses } from "./middleware/ErrorResponses.js"
import { handlerTimeout } from "./middleware/HandlerTimeout.js"
import { makeAcceptedMediaTypes, mediaTypes } from "./middleware/MediaTypes.js"
import { publicCors } from "./middleware/PublicCors.js"
import { frontDoorAdmission, requestAdmission } from "./middleware/RequestAdmission.js"
import { bodyLimitFor, requestBody } from "./middleware/RequestBody.js"
import { requestObservability } from "./middleware/RequestObservability.js"
import { requestText } from "./middleware/RequestText.js"
import { retryAfter } from "./middleware/RetryAfter.js"
import { securityHeaders } from "./middleware/SecurityHeaders.js"
import { linkPageRoutes, LinkPagesLive } from "./pages/LinkPagesRoute.js"
import { makeAllowedMethods, routesOf } from "./RouteTable.js"

/** Routes served beside the contract. */
const routesBeside = [
  ...referenceRoutes,
  widgetRoute,
  ...linkPageRoutes
] as const

/** The API as an app, wrapped in Parley's request handling, served on the current `HttpServer`. */
export const HttpAppLive = Layer.unwrapScoped(
  Effect.gen(function*() {
    const limitOf = bodyLimitFor({ body: yield* MaxBodyBytes, upload: yield* MaxUploadBytes })
    const timeout = yield* RequestTimeout
    const https = (yield* PublicUrl).startsWith("https://")
    const routes = routesOf(Api, routesBeside)
    const allowedMethods = makeAllowedMethods(routes)
    const acceptedMediaTypes = makeAcceptedMediaTypes(Api)
    const admission = yield* Admission
    // On the node's own server, admission control decides at its front door.
    const door = yield* Effect.serviceOption(FrontDoor)
    if (Option.isSome(door)) yield* door.value.guarded(frontDoorAdmission(admission, routes, { https }))
    return Layer.unwrapEffect(
      Effect.map(HttpApiBuilder.httpApp, (app) =>
        HttpServer.serve(
          app.pipe(
            requestBody(limitOf),
            requestText(routes),
            mediaTypes(acceptedMediaTypes),
            handlerTimeout(timeout),
            errorResponses({ allowedMethods, maxBodyBytes: limitOf }),
            requestAdmission(admission, routes),
            retryAfter,
            securityHeaders({ https }),
            publicCors
          ),
          requestObservability
        ))
    )
  })
).pipe(
  Layer.provide([
    ReferenceRoutesLive,
    WidgetRouteLive,
    LinkPagesLive
  ]),
  Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]),
  Layer.provide(ApiLive)
)

/** The Node HTTP server, with its front door, on the configured host and port. */
export const NodeServerLive = Layer.unwrapEffect(
  Effect.map(Effect.all([Host, Port]), ([host, port]) => frontDoorServer({ host, port }))
)
