import { ClusterError, EntityAddress, EntityId, EntityType, ShardId, Snowflake } from "@effect/cluster"
import { Socket } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, FiberId, TestClock } from "effect"
import { type RuntimeSessionId, TurnFailed } from "../../../../src/domain/runtime/RuntimeSession.js"
import type { SimulatedTurnReply } from "../../../../src/domain/runtime/Turn.js"
import { sendTurn, type TurnSent } from "../../../../src/services/runtime/SendTurn.js"

const sessionId = "01a1fdd4-c76f-712c-a1aa-f0570ff24153" as RuntimeSessionId
const reply = { sessionId, turn: 1 } as unknown as SimulatedTurnReply
/** A reply interrupted on the entity's side: a failure whose cause is another fiber's interruption. */
const interruptedReply = Effect.failCause(Cause.interrupt(FiberId.make(7, 0)))
/** The owner is still running this message (a repeat reached it before the turn ended). */
const stillRunning = Effect.fail(
  new ClusterError.AlreadyProcessingMessage({
    envelopeId: Snowflake.Snowflake(BigInt(1)),
    address: EntityAddress.make({
      shardId: ShardId.make("default", 1),
      entityType: EntityType.EntityType.make("RuntimeSession"),
      entityId: EntityId.make(sessionId)
    })
  })
)

/** A `send` answering `outcomes` in turn, counting its calls. */
const scripted = (outcomes: ReadonlyArray<TurnSent>) => {
  let calls = 0
  const send: TurnSent = Effect.suspend(() => outcomes[Math.min(calls++, outcomes.length - 1)]!)
  return { send, calls: () => calls }
}

describe("sendTurn", () => {
  it.effect("sends again, with the same message, while the reply comes back interrupted", () =>
    Effect.gen(function*() {
      const { calls, send } = scripted([interruptedReply, interruptedReply, Effect.succeed(reply)])
      const fiber = yield* Effect.fork(sendTurn(sessionId, send))
      yield* TestClock.adjust("1 second")
      expect(yield* fiber.await).toEqual(Exit.succeed(reply))
      expect(calls()).toBe(3)
    }))

  it.effect("sends again when the connection to the owner's runner broke mid-send (it died), failed or died", () =>
    Effect.gen(function*() {
      const broken = new Socket.SocketGenericError({ reason: "Write", cause: new Error("EPIPE") })
      const { calls, send } = scripted([
        Effect.die(broken),
        Effect.fail(broken) as unknown as TurnSent,
        Effect.succeed(reply)
      ])
      const fiber = yield* Effect.fork(sendTurn(sessionId, send))
      yield* TestClock.adjust("1 second")
      expect(yield* fiber.await).toEqual(Exit.succeed(reply))
      expect(calls()).toBe(3)
    }))

  it.effect("lets any other defect through (a bug is not retried into a 503)", () =>
    Effect.gen(function*() {
      const { calls, send } = scripted([Effect.die(new Error("a bug")), Effect.succeed(reply)])
      const exit = yield* sendTurn(sessionId, send).pipe(Effect.exit)
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      expect(calls()).toBe(1)
    }))

  it.effect("waits for a turn that is still running, by asking again soon", () =>
    Effect.gen(function*() {
      const { calls, send } = scripted([stillRunning, stillRunning, stillRunning, Effect.succeed(reply)])
      const fiber = yield* Effect.fork(sendTurn(sessionId, send))
      // The first resends come within tens of milliseconds.
      yield* TestClock.adjust("200 millis")
      expect(yield* fiber.await).toEqual(Exit.succeed(reply))
      expect(calls()).toBe(4)
    }))

  it.effect("asks again when a send has no answer in time (its node froze), and takes the answer of the next", () =>
    Effect.gen(function*() {
      const { calls, send } = scripted([Effect.never, Effect.never, Effect.succeed(reply)])
      const fiber = yield* Effect.fork(sendTurn(sessionId, send))
      yield* TestClock.adjust("1 second")
      expect(calls()).toBe(1)
      yield* TestClock.adjust("5 seconds")
      expect(yield* fiber.await).toEqual(Exit.succeed(reply))
      expect(calls()).toBe(3)
    }))

  it.effect("releases a turn's message for its owner to read again at each re-ask while it stays unanswered", () =>
    Effect.gen(function*() {
      const { send } = scripted([Effect.never, Effect.never, Effect.never, Effect.never, Effect.succeed(reply)])
      let released = 0
      const fiber = yield* Effect.fork(sendTurn(sessionId, send, Effect.sync(() => released++)))
      // Each send waits ASK_AGAIN_AFTER (1.5 s) before the turn is asked for again.
      yield* TestClock.adjust("1 second")
      expect(released).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(released).toBe(1)
      yield* TestClock.adjust("10 seconds")
      expect(yield* fiber.await).toEqual(Exit.succeed(reply))
      expect(released).toBe(4)
    }))

  it.effect("gives up after the delivery limit with a typed 503 that says to retry with the same key", () =>
    Effect.gen(function*() {
      const { calls, send } = scripted([interruptedReply])
      const fiber = yield* Effect.fork(Effect.flip(sendTurn(sessionId, send)))
      yield* TestClock.adjust("60 seconds")
      const error = yield* Fiber.join(fiber)
      expect(error).toMatchObject({ _tag: "NotReady" })
      expect(error.message).toContain("same key")
      // Soon at first, then every 250 ms, for 25 s.
      expect(calls()).toBeGreaterThanOrEqual(90)
      expect(calls()).toBeLessThanOrEqual(115)
    }))

  it.effect("does not resend a turn the entity refused, and maps the cluster's refusals to 503", () =>
    Effect.gen(function*() {
      const storage = scripted([Effect.fail(new ClusterError.PersistenceError({ cause: "disk full" }))])
      expect(yield* Effect.flip(sendTurn(sessionId, storage.send))).toMatchObject({ _tag: "NotReady" })
      expect(storage.calls()).toBe(1)
      const failed = scripted([
        Effect.fail(new TurnFailed({ sessionId, idempotencyKey: "k", attempts: 3, message: "given up" }))
      ])
      expect(yield* Effect.flip(sendTurn(sessionId, failed.send))).toMatchObject({ _tag: "TurnFailed" })
      expect(failed.calls()).toBe(1)
      const died = scripted([Effect.die("boom")])
      expect(Exit.isFailure(yield* Effect.exit(sendTurn(sessionId, died.send)))).toBe(true)
      expect(died.calls()).toBe(1)
    }))
})
