/**
 * Sending a turn to its session's entity, for both the editors' and the
 * public route: the cluster's transient refusals become a typed 503, and a
 * reply that came back interrupted (the node running the entity was handing
 * its shards over, say) is asked for again with the same message (for up to 10 s), which the
 * message's primary key makes safe: the turn still runs once, and a resend
 * is answered from storage if it had.
 */
import type { ClusterError } from "@effect/cluster"
import { Cause, Data, Effect, Schedule } from "effect"
import { NotReady } from "../../domain/HttpErrors.js"
import type { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import type {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound
} from "../../domain/runtime/RuntimeSession.js"
import type { SimulatedTurnReply } from "../../domain/runtime/Turn.js"

/** A turn sent to the entity, as the cluster's client answers it. */
export type TurnSent = Effect.Effect<
  SimulatedTurnReply,
  | RuntimeSessionNotFound
  | RuntimeSessionEnded
  | IdempotencyKeyReused
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError
>

/** The entity's answer ended in an interruption of its own (not of this request). */
class ReplyInterrupted extends Data.TaggedError("ReplyInterrupted")<{}> {}

/**
 * How long apart an interrupted reply is asked for again, and for how long: a
 * hand-over lasts until the new owner takes the shard (a refresh interval
 * after a graceful leave, the lock expiration after a crash), and until then
 * a resend may reach the leaving node and come back interrupted again (1 s of
 * resends was seen to be too short in CI).
 */
const RESEND_SPACING = "250 millis"
const RESEND_FOR = "10 seconds"

/** `send` (the client's `Turn` call for the session), resent while its reply comes back interrupted. */
export const sendTurn = (sessionId: RuntimeSessionId, send: TurnSent) =>
  send.pipe(
    Effect.catchAllCause((cause): Effect.Effect<never, Effect.Effect.Error<TurnSent> | ReplyInterrupted> =>
      Cause.isInterruptedOnly(cause) ? Effect.fail(new ReplyInterrupted()) : Effect.failCause(cause)
    ),
    Effect.tapError((error) =>
      error._tag === "ReplyInterrupted"
        ? Effect.logInfo("A turn's reply came back interrupted; sending it again with the same key").pipe(
          Effect.annotateLogs({ sessionId })
        )
        : Effect.void
    ),
    Effect.retry({
      schedule: Schedule.spaced(RESEND_SPACING).pipe(Schedule.upTo(RESEND_FOR)),
      while: (error) => error._tag === "ReplyInterrupted"
    }),
    Effect.catchTags({
      ReplyInterrupted: () =>
        Effect.fail(new NotReady({ message: "The conversation is moving to another node; retry with the same key" })),
      MailboxFull: () => Effect.fail(new NotReady({ message: "The conversation is busy; retry shortly" })),
      AlreadyProcessingMessage: () =>
        Effect.fail(new NotReady({ message: "This turn is still being processed; retry with the same key" })),
      PersistenceError: (error) =>
        Effect.zipRight(
          Effect.logError("The cluster's message storage failed", error.cause),
          Effect.fail(new NotReady({ message: "The cluster's storage is unavailable" }))
        )
    })
  )
