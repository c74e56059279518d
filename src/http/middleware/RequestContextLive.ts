/** `RequestContext`: the request's origin, worked out by `RequestOrigin` from the request. */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { RequestOrigin } from "../RequestOrigin.js"
import { RequestContext } from "./RequestContext.js"

export const RequestContextLive = Layer.effect(
  RequestContext,
  Effect.map(RequestOrigin, (origins) => Effect.flatMap(HttpServerRequest.HttpServerRequest, origins.of))
).pipe(Layer.provide(RequestOrigin.Default))
