/**
 * The handler time-out's `deadline`: what `Effect.timeoutOption` answers,
 * with one fiber and a timer. The value in time, none past it (the effect
 * interrupted before the answer), the effect's own failure, its fiber refs
 * kept, and an interrupted caller interrupting the effect.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, FiberRef, Option, Ref } from "effect"
import { deadline } from "../../../src/http/middleware/HandlerTimeout.js"

describe("deadline", () => {
  it.live("answers the value of an effect that ends in time, at once or later", () =>
    Effect.gen(function*() {
      expect(yield* deadline(Effect.succeed(1), 1_000)).toEqual(Option.some(1))
      expect(yield* deadline(Effect.as(Effect.sleep("10 millis"), 2), 1_000)).toEqual(Option.some(2))
    }))

  it.live("answers none once the time is out, after the effect was interrupted", () =>
    Effect.gen(function*() {
      const stopped = yield* Ref.make(false)
      const slow = Effect.interruptible(Effect.never).pipe(Effect.onInterrupt(() => Ref.set(stopped, true)))
      const started = Date.now()
      expect(yield* deadline(slow, 30)).toEqual(Option.none())
      expect(Date.now() - started).toBeGreaterThanOrEqual(25)
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(yield* Ref.get(stopped)).toBe(true)
    }))

  it.live("fails as the effect fails, and dies as it dies", () =>
    Effect.gen(function*() {
      expect(yield* Effect.exit(deadline(Effect.fail("no"), 1_000))).toEqual(Exit.fail("no"))
      const died = yield* Effect.exit(deadline(Effect.die("broken"), 1_000))
      expect(Exit.isFailure(died) && died.cause._tag).toBe("Die")
    }))

  it.live("keeps the fiber refs the effect set, as a join does", () =>
    Effect.gen(function*() {
      const ref = FiberRef.unsafeMake("before")
      yield* deadline(FiberRef.set(ref, "after"), 1_000)
      expect(yield* FiberRef.get(ref)).toBe("after")
    }))

  it.live("a caller interrupted while it waits interrupts the effect, and no timer fires after", () =>
    Effect.gen(function*() {
      const running = yield* Deferred.make<void>()
      const stopped = yield* Ref.make(false)
      const effect = Deferred.succeed(running, undefined).pipe(
        Effect.zipRight(Effect.never),
        Effect.onInterrupt(() => Ref.set(stopped, true))
      )
      const caller = yield* Effect.fork(deadline(effect, 50))
      yield* Deferred.await(running)
      const exit = yield* Fiber.interrupt(caller)
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* Ref.get(stopped)).toBe(true)
      // Had the timer survived, it would resume a fiber that is gone; nothing may happen.
      yield* Effect.sleep("80 millis")
    }))
})
