/**
 * Admission control as a unit, on the test clock: a gate admits up to its
 * bound without waiting, refuses beyond it at once and runs nothing, and gives
 * its permit back however the admitted work ends; refusals make the node
 * saturated, with hysteresis.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Metric, TestClock } from "effect"
import { Overloaded } from "../../../src/domain/HttpErrors.js"
import { admissionRejected } from "../../../src/observability/Metrics.js"
import {
  Admission,
  RETRY_AFTER_SECONDS,
  SATURATION_CALM_MILLIS,
  SATURATION_REFUSALS
} from "../../../src/services/Admission.js"
import { configFrom } from "../../support/TestServer.js"

const withBounds = (turns: number, requests = 0) =>
  Admission.Default.pipe(
    Layer.provide(Layer.setConfigProvider(configFrom({
      PARLEY_MAX_TURNS_IN_FLIGHT: String(turns),
      PARLEY_MAX_REQUESTS_IN_FLIGHT: String(requests)
    })))
  )

/** Admit `count` turns that run until `release` is completed; their fibers. */
const holdTurns = (admission: Admission, count: number, release: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const fibers = yield* Effect.forEach(
      Array.from({ length: count }),
      () => Effect.fork(admission.admit(Deferred.await(release))),
      { concurrency: "unbounded" }
    )
    yield* Effect.yieldNow()
    return fibers
  })

/** `count` turns refused in a row (each must be refused). */
const refuseTurns = (admission: Admission, count: number) =>
  Effect.forEach(Array.from({ length: count }), () => Effect.flip(admission.admit(Effect.void)), { discard: true })

const saturated = Effect.flatMap(Admission, (admission) => Effect.map(admission.status, (status) => status.saturated))

describe("Admission", () => {
  it.effect("admits up to the bound and refuses the next at once, without running it", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      const fibers = yield* holdTurns(admission, 2, release)
      expect((yield* admission.status).turns).toEqual({ inFlight: 2, reserved: 0, limit: 2 })

      let ran = false
      const rejectedBefore = (yield* Metric.value(Metric.tagged(admissionRejected, "gate", "turns"))).count
      const refused = yield* admission.admit(Effect.sync(() => (ran = true))).pipe(Effect.flip)
      expect(refused._tag).toBe("Overloaded")
      expect(refused.retryAfterSeconds).toBe(RETRY_AFTER_SECONDS)
      expect(ran).toBe(false)
      expect((yield* Metric.value(Metric.tagged(admissionRejected, "gate", "turns"))).count).toBe(rejectedBefore + 1)

      yield* Deferred.succeed(release, undefined)
      yield* Fiber.joinAll(fibers)
      expect((yield* admission.status).turns.inFlight).toBe(0)
      expect(yield* admission.admit(Effect.succeed("after"))).toBe("after")
    }).pipe(Effect.provide(withBounds(2))))

  it.effect("a refusal does not wait for a permit to come free", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 1, release)
      // On the test clock, time passes only when told: a refusal that waited would never end here.
      const refused = yield* Effect.fork(Effect.flip(admission.admit(Effect.void)))
      yield* Effect.yieldNow()
      const exit = yield* Fiber.poll(refused)
      expect(exit._tag).toBe("Some")
    }).pipe(Effect.provide(withBounds(1))))

  it.effect("the permit comes back after success, failure, defect and interruption", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const free = () => Effect.map(admission.status, (status) => status.turns.inFlight)

      expect(yield* admission.admit(Effect.succeed(1))).toBe(1)
      expect(yield* free()).toBe(0)

      const failed = yield* Effect.exit(admission.admit(Effect.fail("no")))
      expect(failed).toEqual(Exit.fail("no"))
      expect(yield* free()).toBe(0)

      const died = yield* Effect.exit(admission.admit(Effect.die("boom")))
      expect(Exit.isFailure(died) && !Exit.isInterrupted(died)).toBe(true)
      expect(yield* free()).toBe(0)

      const fiber = yield* Effect.fork(admission.admit(Effect.never))
      yield* Effect.yieldNow()
      expect(yield* free()).toBe(1)
      yield* Fiber.interrupt(fiber)
      expect(yield* free()).toBe(0)

      // The one permit is free again after all of that.
      expect(yield* admission.admit(Effect.succeed("again"))).toBe("again")
    }).pipe(Effect.provide(withBounds(1))))

  it.effect("checking for a turn takes no permit, and refuses as admitting would when the gate is full", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      yield* admission.checkTurn
      yield* admission.checkTurn
      expect((yield* admission.status).turns.inFlight).toBe(0)
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 1, release)
      const refused = yield* Effect.flip(admission.checkTurn)
      expect(refused._tag).toBe("Overloaded")
      expect(refused.message).toContain("turns")
    }).pipe(Effect.provide(withBounds(1))))

  it.effect("a bound of 0 admits everything, still counted", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 500, release)
      expect((yield* admission.status).turns).toEqual({ inFlight: 500, reserved: 0, limit: 0 })
      expect(yield* admission.admit(Effect.succeed("yes"))).toBe("yes")
    }).pipe(Effect.provide(withBounds(0))))

  it.effect("the turns and the requests gates are bounded apart", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 1, release)
      expect(yield* admission.admitRequest(Effect.succeed("request"))).toBe("request")
      const request = yield* Effect.fork(admission.admitRequest(Deferred.await(release)))
      yield* Effect.yieldNow()
      expect((yield* Effect.flip(admission.admitRequest(Effect.void)))._tag).toBe("Overloaded")
      expect((yield* admission.status).requests).toEqual({ inFlight: 1, reserved: 0, limit: 1 })
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(request)
    }).pipe(Effect.provide(withBounds(1, 1))))

  it.effect("the front door takes a request's permit and holds a turn's room, which its admit claims", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const first = admission.enterNow(true, 0)
      if (first instanceof Overloaded) return expect.fail("the first turn's request was refused")
      expect(yield* admission.status).toMatchObject({
        turns: { inFlight: 0, reserved: 1 },
        requests: { inFlight: 1, reserved: 0 }
      })
      // The gate's one room is held: another turn is refused, at the door and in a fiber alike.
      const second = admission.enterNow(true, 0)
      expect(second).toBeInstanceOf(Overloaded)
      expect((yield* admission.status).requests.inFlight).toBe(1)
      expect((yield* Effect.flip(admission.admit(Effect.void)))._tag).toBe("Overloaded")
      // The request's own turn claims the room whatever the load, once.
      const release = yield* Deferred.make<void>()
      const turn = yield* Effect.fork(
        admission.withTurnReservation(first.turn!)(admission.admit(Deferred.await(release)))
      )
      yield* Effect.yieldNow()
      expect((yield* admission.status).turns).toEqual({ inFlight: 1, reserved: 0, limit: 1 })
      expect(first.turn!.claim()).toBe(false)
      // The request's end gives back its permit (once, however often) and cancels nothing claimed.
      first.leave()
      first.leave()
      first.turn!.cancel()
      expect(yield* admission.status).toMatchObject({
        turns: { inFlight: 1, reserved: 0 },
        requests: { inFlight: 0, reserved: 0 }
      })
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(turn)
      expect((yield* admission.status).turns.inFlight).toBe(0)
    }).pipe(Effect.provide(withBounds(1, 2))))

  it.effect("a turn's room not claimed comes back when its request ends", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const pass = admission.enterNow(true, 0)
      if (pass instanceof Overloaded) return expect.fail("refused")
      // A request that is not a turn takes no room in the turns gate.
      const other = admission.enterNow(false, 0)
      if (other instanceof Overloaded) return expect.fail("refused")
      expect(other.turn).toBeUndefined()
      pass.turn!.cancel()
      pass.leave()
      other.leave()
      expect(yield* admission.status).toMatchObject({
        turns: { inFlight: 0, reserved: 0 },
        requests: { inFlight: 0, reserved: 0 }
      })
      // A claim after the cancel gets nothing: its admit is decided as any other.
      expect(pass.turn!.claim()).toBe(false)
      expect(yield* admission.admit(Effect.succeed("admitted"))).toBe("admitted")
    }).pipe(Effect.provide(withBounds(1, 2))))

  it.effect("a request that joins a running turn gives its room back at once", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const pass = admission.enterNow(true, 0)
      if (pass instanceof Overloaded) return expect.fail("refused")
      // The repeat of a running turn waits for it without a permit: the room it held is free while it waits.
      const release = yield* Deferred.make<void>()
      const waiting = yield* Effect.fork(
        admission.withTurnReservation(pass.turn!)(Effect.zipRight(admission.forgoTurn, Deferred.await(release)))
      )
      yield* Effect.yieldNow()
      expect((yield* admission.status).turns).toEqual({ inFlight: 0, reserved: 0, limit: 1 })
      expect(yield* admission.admit(Effect.succeed("another turn"))).toBe("another turn")
      // Forgoing twice, or outside a request, gives back nothing more.
      yield* admission.forgoTurn
      yield* admission.withTurnReservation(pass.turn!)(admission.forgoTurn)
      expect((yield* admission.status).turns.reserved).toBe(0)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(waiting)
      pass.leave()
    }).pipe(Effect.provide(withBounds(1, 2))))

  it.effect("a turn refused at the door gives back the request permit it took", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 1, release)
      expect(admission.enterNow(true, 0)).toBeInstanceOf(Overloaded)
      expect((yield* admission.status).requests.inFlight).toBe(0)
      // The requests gate refuses at the door too.
      const held = admission.enterNow(false, 0)
      expect(held).not.toBeInstanceOf(Overloaded)
      expect(admission.enterNow(false, 0)).toBeInstanceOf(Overloaded)
    }).pipe(Effect.provide(withBounds(1, 1))))

  it.effect("refusals make the node saturated, and a calm makes it ready again", () =>
    Effect.gen(function*() {
      const admission = yield* Admission
      const release = yield* Deferred.make<void>()
      yield* holdTurns(admission, 1, release)

      // A burst just short of the threshold leaves readiness alone.
      yield* refuseTurns(admission, SATURATION_REFUSALS - 1)
      expect(yield* saturated).toBe(false)
      // Spread over more than the window, the same number again does not either.
      yield* TestClock.adjust("1100 millis")
      yield* refuseTurns(admission, SATURATION_REFUSALS - 1)
      expect(yield* saturated).toBe(false)

      // Within one second: saturated.
      yield* refuseTurns(admission, 1)
      expect(yield* saturated).toBe(true)

      // One more refusal late in the calm starts the calm over.
      yield* TestClock.adjust(SATURATION_CALM_MILLIS - 500)
      expect(yield* saturated).toBe(true)
      yield* refuseTurns(admission, 1)
      yield* TestClock.adjust(SATURATION_CALM_MILLIS - 500)
      expect(yield* saturated).toBe(true)
      yield* TestClock.adjust("500 millis")
      expect(yield* saturated).toBe(false)
    }).pipe(Effect.provide(withBounds(1))))
})
