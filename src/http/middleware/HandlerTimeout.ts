/**
 * A request whose handler runs longer than the configured time answers 504.
 * WebSocket upgrades are exempt: their handler lives as long as the socket.
 */
import { HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Duration, Effect, Exit, Fiber, Option } from "effect"
import { Timeout } from "../../domain/HttpErrors.js"
import { jsonError } from "../JsonError.js"

/**
 * `Effect.timeoutOption` with one fiber instead of two: `self` runs on a
 * child fiber and a timer ends the wait, where `timeoutOption` races it
 * against a sleeping fiber. The same outcome (the value, `self`'s failure,
 * or none once `self` was interrupted after the time ran out; the child's
 * fiber refs inherited on success), for about 0.1 ms less CPU per request on
 * a two-CPU machine (`Effect.timeoutOption` cost 0.27 ms of a 1.7 ms
 * `/health/live`, measured against no time-out at all).
 */
export const deadline = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  millis: number
): Effect.Effect<Option.Option<A>, E, R> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(
      Effect.fork(restore(self)),
      (child) =>
        restore(Effect.async<Option.Option<Exit.Exit<A, E>>>((resume) => {
          const done = (exit: Exit.Exit<A, E>) => {
            clearTimeout(timer)
            resume(Effect.succeed(Option.some(exit)))
          }
          const timer = setTimeout(() => {
            child.removeObserver(done)
            resume(Effect.succeed(Option.none()))
          }, millis)
          child.addObserver(done)
          return Effect.sync(() => {
            clearTimeout(timer)
            child.removeObserver(done)
          })
        })).pipe(
          Effect.onInterrupt(() => Fiber.interrupt(child)),
          Effect.flatMap(Option.match({
            onNone: () => Effect.as(Fiber.interrupt(child), Option.none<A>()),
            onSome: (exit) =>
              Exit.isSuccess(exit)
                ? Effect.as(Fiber.inheritAll(child), Option.some(exit.value))
                : Effect.failCause(exit.cause)
          }))
        )
    )
  )

export const handlerTimeout =
  (duration: Duration.Duration) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> => {
    const millis = Duration.toMillis(duration)
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      request.headers["upgrade"] !== undefined
        ? app
        : Effect.flatMap(
          deadline(app, millis),
          Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              jsonError(
                Timeout,
                new Timeout({ timeoutMillis: millis, message: `The request took longer than ${millis} ms` })
              )
          })
        ))
  }
