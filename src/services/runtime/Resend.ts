/**
 * Sending a message to an entity again while the cluster's answer is
 * transient: a reply interrupted by a shard moving, or the owner still busy
 * with the same message (`AlreadyProcessingMessage`). Every sender of
 * persisted, keyed messages does this (Assistant turns in `SendTurn.ts`, with
 * more cases of its own; AI-agent turns; simulator turns); the entity answers
 * a repeat from what it stored, so sending again is always safe.
 */
import { ClusterError } from "@effect/cluster"
import { Cause, Data, Duration, Effect, Schedule } from "effect"
import { NotReady } from "../../domain/HttpErrors.js"

/**
 * How often a transient answer is asked for again: soon at first (a repeat
 * usually waits for a turn that ends within milliseconds), then every 250 ms
 * (a hand-over lasts until the new owner takes the shard: a refresh interval
 * after a graceful leave, the lock expiration after a crash).
 */
export const RESEND = Schedule.exponential("20 millis", 1.5).pipe(Schedule.either(Schedule.spaced("250 millis")))

/**
 * How long a turn is waited for in all. It stays under the request time-out
 * (30 s by default), so a caller that waited that long hears "retry with the
 * same key" rather than a time-out; the turn itself goes on regardless.
 */
export const DELIVERY_LIMIT = Duration.seconds(25)

/** A transient answer: send the same message again. */
class SendAgain extends Data.TaggedError("SendAgain")<{}> {}

/** What the cluster's client may answer besides the message's own errors. */
export type ClusterFailure =
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError

/**
 * `send` (an entity client's call), sent again while its answer is transient,
 * for at most `DELIVERY_LIMIT`; the cluster's failures become a typed `503`
 * (`busy` is what a caller that waited too long is told: the message goes on
 * regardless). The message's own errors pass through.
 */
export const resentWhileTransient = <A, E>(
  send: Effect.Effect<A, E | ClusterFailure>,
  busy: string
): Effect.Effect<A, Exclude<E, ClusterFailure> | NotReady> =>
  send.pipe(
    Effect.catchAllCause((cause): Effect.Effect<never, E | ClusterFailure | SendAgain> =>
      Cause.isInterruptedOnly(cause) ? Effect.fail(new SendAgain()) : Effect.failCause(cause)
    ),
    Effect.catchIf(
      (error): error is ClusterError.AlreadyProcessingMessage => error instanceof ClusterError.AlreadyProcessingMessage,
      () => Effect.fail(new SendAgain())
    ),
    Effect.retry({ schedule: RESEND, while: (error) => error instanceof SendAgain }),
    Effect.timeoutFail({ duration: DELIVERY_LIMIT, onTimeout: () => new NotReady({ message: busy }) }),
    Effect.catchAll((error): Effect.Effect<never, Exclude<E, ClusterFailure> | NotReady> => {
      if (error instanceof SendAgain) return Effect.fail(new NotReady({ message: busy }))
      if (error instanceof ClusterError.MailboxFull) {
        return Effect.fail(new NotReady({ message: "The conversation is busy; retry shortly" }))
      }
      if (error instanceof ClusterError.PersistenceError) {
        return Effect.zipRight(
          Effect.logError("The cluster's message storage failed", error.cause),
          Effect.fail(new NotReady({ message: "The cluster's storage is unavailable" }))
        )
      }
      return Effect.fail(error as Exclude<E, ClusterFailure> | NotReady)
    })
  )
