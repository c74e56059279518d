/**
 * The node's scheduler lets Node read its sockets while fibers are busy:
 * a fiber that computes in short steps (yielding between them, as every fiber
 * does every 2,048 operations) keeps Effect's default scheduler in
 * microtasks, where no I/O callback runs; on a `FairScheduler` the event loop
 * gets a turn about every slice. Counted, not timed: how many `setImmediate`
 * callbacks (which run right after Node polls for I/O) ran during the work.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Scheduler } from "effect"
import { FairScheduler } from "../../../src/FairScheduler.js"

/** 60 steps of 2 ms of CPU each, yielding in between. */
const busy = Effect.forEach(Array.from({ length: 60 }), () =>
  Effect.zipRight(
    Effect.sync(() => {
      const until = performance.now() + 2
      while (performance.now() < until) { /* compute */ }
    }),
    Effect.yieldNow()
  ), { discard: true })

/** How many times the event loop came round (a `setImmediate` chain) while `busy` ran on `scheduler`. */
const loopTurnsDuring = (scheduler: Scheduler.Scheduler) =>
  Effect.promise(() =>
    new Promise<number>((resolve) => {
      let turns = 0
      let done = false
      const tick = () => {
        if (done) return
        turns++
        setImmediate(tick)
      }
      setImmediate(tick)
      // Started from a microtask, as a resumed fiber would be, so the count starts at 0.
      Effect.runPromise(Effect.withScheduler(busy, scheduler)).then(() => {
        done = true
        resolve(turns)
      })
    })
  )

describe("FairScheduler", () => {
  it.effect("lets the event loop come round every slice while fibers compute", () =>
    Effect.gen(function*() {
      const onDefault = yield* loopTurnsDuring(Scheduler.defaultScheduler)
      const onFair = yield* loopTurnsDuring(new FairScheduler(5))
      // 120 ms of work: none or next to none on Effect's scheduler, about one per 5 ms slice on the fair one.
      expect(onDefault).toBeLessThanOrEqual(2)
      expect(onFair).toBeGreaterThanOrEqual(12)
    }))

  it.effect("keeps priorities and runs everything it is given", () =>
    Effect.gen(function*() {
      const ran: Array<string> = []
      const scheduler = new FairScheduler(1)
      yield* Effect.promise(() =>
        new Promise<void>((resolve) => {
          scheduler.scheduleTask(() => ran.push("priority 1"), 1)
          scheduler.scheduleTask(() => ran.push("priority 0"), 0)
          for (let i = 0; i < 1000; i++) scheduler.scheduleTask(() => ran.push("more"), 0)
          scheduler.scheduleTask(() => resolve(), 2)
        })
      )
      expect(ran.length).toBe(1002)
      expect(ran[0]).toBe("priority 0")
      expect(ran[1001]).toBe("priority 1")
    }))
})
