/**
 * A request whose handler runs longer than the configured time answers 504.
 * WebSocket upgrades are exempt: their handler lives as long as the socket.
 */
import { HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Duration, Effect, Option } from "effect"
import { Timeout } from "../../domain/HttpErrors.js"
import { jsonError } from "../JsonError.js"

export const handlerTimeout =
  (duration: Duration.Duration) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      request.headers["upgrade"] !== undefined
        ? app
        : Effect.flatMap(
          Effect.timeoutOption(app, duration),
          Option.match({
            onSome: Effect.succeed,
            onNone: () => {
              const millis = Duration.toMillis(duration)
              return jsonError(
                Timeout,
                new Timeout({ timeoutMillis: millis, message: `The request took longer than ${millis} ms` })
              )
            }
          })
        ))
