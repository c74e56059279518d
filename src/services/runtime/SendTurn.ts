/**
 * Delivering a turn to its session's entity, for both the editors' and the
 * public route, and mapping the cluster's answers to typed ones. Four
 * answers are transient and make it send the same message again (its primary
 * key makes that safe: the turn still runs once, and a resend is answered from
 * storage if it has): a reply that came back interrupted (the node running
 * the entity was handing its shards over), `AlreadyProcessingMessage` (a
 * repeat of a turn that is still running: the repeat waits for its end), a
 * connection to the owner's runner that broke (it died mid-send), and no
 * answer within `ASK_AGAIN_AFTER`. The last is for a node that stopped
 * without dying (frozen): a request sent to its runner waits for as long as
 * it is frozen, while its shards move to the others once its lock expires;
 * asked again, the cluster notifies the new owner and reads the answer from
 * storage. A turn still unanswered after `RELEASE_AFTER` is also released
 * (`release`): a message the old owner had read before it froze or died
 * counts as being read for ten minutes, unless the new owner's reset of the
 * shards it took got through (it is given one lock interval, and under load it
 * can miss); released, the new owner reads it at once. The cluster's other
 * refusals become a typed 503.
 */
import type { ClusterError } from "@effect/cluster"
import { Cause, Chunk, Clock, Data, Duration, Effect, Predicate } from "effect"
import { NotReady } from "../../domain/HttpErrors.js"
import type { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import type {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound,
  TurnFailed
} from "../../domain/runtime/RuntimeSession.js"
import type { SimulatedTurnReply } from "../../domain/runtime/Turn.js"
import { DELIVERY_LIMIT, RESEND } from "./Resend.js"

/** A turn sent to the entity, as the cluster's client answers it. */
export type TurnSent = Effect.Effect<
  SimulatedTurnReply,
  | RuntimeSessionNotFound
  | RuntimeSessionEnded
  | IdempotencyKeyReused
  | TurnFailed
  | ClusterError.MailboxFull
  | ClusterError.AlreadyProcessingMessage
  | ClusterError.PersistenceError
>

/** What a delivered turn answers: the reply, or a typed refusal. */
export type TurnDelivered = Effect.Effect<
  SimulatedTurnReply,
  RuntimeSessionNotFound | RuntimeSessionEnded | IdempotencyKeyReused | TurnFailed | NotReady
>

/** The entity's answer ended in an interruption of its own (not of this request). */
class ReplyInterrupted extends Data.TaggedError("ReplyInterrupted")<{}> {}

/** No answer yet: the turn is slow, or the node it was sent to has stopped answering. */
class ReplyOverdue extends Data.TaggedError("ReplyOverdue")<{}> {}

/**
 * The connection to the owner's runner broke while the turn was sent (the
 * node died mid-write): the cluster's client lets the socket's error through
 * as it is, and the turn is sent again once the shard has moved.
 */
class RunnerUnreachable extends Data.TaggedError("RunnerUnreachable")<{}> {}

/** The socket transport's and the RPC client's errors (`@effect/platform` Socket, `@effect/rpc`). */
const TRANSPORT_ERRORS = new Set(["SocketError", "RpcClientError"])

const isTransportError = (u: unknown) => Predicate.hasProperty(u, "_tag") && TRANSPORT_ERRORS.has(String(u._tag))

/** Whether a send failed, or died, because the connection to the runner broke. */
const brokeInTransport = (cause: Cause.Cause<unknown>) =>
  Chunk.some(Cause.defects(cause), isTransportError) || Chunk.some(Cause.failures(cause), isTransportError)

/**
 * How long one send waits before the turn is asked for again. Well above a
 * turn's time (milliseconds; a second or so on a saturated node), and short
 * against the lock expiration (3 s), so a frozen owner's turns are answered
 * soon after its shards move.
 */
export const ASK_AGAIN_AFTER = Duration.millis(1500)

/**
 * How long a turn goes unanswered before its message is released for the
 * owner to read again, and how often after that: at the first send that goes
 * unanswered (`ASK_AGAIN_AFTER`). A dead node's shards move within about two
 * seconds (`DeadRunners.ts`), and a turn its new owner did not find (the
 * reset of the shards it took missed its deadline) waited for this release:
 * at 3 s, those were the slowest conversations of a failover (p99 5.3 s vs
 * p50 1.8 s). A live owner that is merely slow is rarely disturbed (when it
 * is, it skips a message it is processing, and a rerun answers from the
 * stored turn).
 */
export const RELEASE_AFTER = ASK_AGAIN_AFTER

const isTransient = (error: { readonly _tag: string }) =>
  error._tag === "ReplyInterrupted" || error._tag === "ReplyOverdue" || error._tag === "RunnerUnreachable" ||
  error._tag === "AlreadyProcessingMessage"

/**
 * `send` (the client's `Turn` call for the session), sent again while its
 * answer is transient; `release` (see above) while it stays unanswered.
 */
export const sendTurn = (
  sessionId: RuntimeSessionId,
  send: TurnSent,
  release: Effect.Effect<void> = Effect.void
): TurnDelivered =>
  Effect.flatMap(Clock.currentTimeMillis, (started) => {
    let released = started
    const releaseWhenDue = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (now - released < Duration.toMillis(RELEASE_AFTER)) return Effect.void
      released = now
      return Effect.zipRight(
        Effect.logInfo("A turn is still unanswered; releasing its message for its owner to read again").pipe(
          Effect.annotateLogs({ sessionId })
        ),
        release
      )
    })
    return deliver(sessionId, send, releaseWhenDue)
  })

const deliver = (sessionId: RuntimeSessionId, send: TurnSent, releaseWhenDue: Effect.Effect<void>): TurnDelivered =>
  send.pipe(
    Effect.catchAllCause((
      cause
    ): Effect.Effect<never, Effect.Effect.Error<TurnSent> | ReplyInterrupted | RunnerUnreachable> =>
      Cause.isInterruptedOnly(cause)
        ? Effect.fail(new ReplyInterrupted())
        : brokeInTransport(cause)
        ? Effect.zipRight(
          Effect.logInfo("The connection to a turn's owner broke; sending it again with the same key", cause).pipe(
            Effect.annotateLogs({ sessionId })
          ),
          Effect.fail(new RunnerUnreachable())
        )
        : Effect.failCause(cause)
    ),
    // A send to a frozen runner never returns: stop waiting for it (without waiting for its interruption either).
    Effect.disconnect,
    Effect.timeoutFail({ duration: ASK_AGAIN_AFTER, onTimeout: () => new ReplyOverdue() }),
    Effect.tapError((error) =>
      error._tag === "ReplyInterrupted"
        ? Effect.logInfo("A turn's reply came back interrupted; sending it again with the same key").pipe(
          Effect.annotateLogs({ sessionId })
        )
        : error._tag === "ReplyOverdue"
        ? releaseWhenDue
        : Effect.void
    ),
    Effect.retry({ schedule: RESEND, while: isTransient }),
    Effect.timeoutFail({
      duration: DELIVERY_LIMIT,
      onTimeout: () => new NotReady({ message: "This turn is still being processed; retry with the same key" })
    }),
    Effect.catchTags({
      ReplyInterrupted: () =>
        Effect.fail(new NotReady({ message: "The conversation is moving to another node; retry with the same key" })),
      RunnerUnreachable: () =>
        Effect.fail(new NotReady({ message: "The conversation is moving to another node; retry with the same key" })),
      ReplyOverdue: () =>
        Effect.fail(new NotReady({ message: "This turn is still being processed; retry with the same key" })),
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
