/**
 * The pause guard: a process that stood still longer than its shard locks
 * are sure to last notices it as soon as it runs again; one that only got
 * busy for a moment does not.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { safePause, watchPauses } from "../../../src/actors/PauseGuard.js"

/** Keep the event loop busy for `ms`, as a frozen or starved process would. */
const standStill = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // nothing runs meanwhile, not even timers
  }
}

describe("PauseGuard", () => {
  it("trusts the locks for one refresh interval less than their expiration", () => {
    const limit = safePause({ lockExpiration: Duration.seconds(4), lockRefreshInterval: Duration.seconds(1) })
    expect(Duration.toMillis(limit)).toBe(3_000)
  })

  it.scopedLive("calls exit once the process runs again after a pause longer than the limit", () =>
    Effect.gen(function*() {
      const pauses: Array<number> = []
      yield* watchPauses(Duration.millis(300), (ms) => pauses.push(ms))
      yield* Effect.sleep("500 millis")
      expect(pauses).toEqual([])
      standStill(900)
      yield* Effect.sleep("400 millis")
      expect(pauses).toHaveLength(1)
      // The pause as the timer saw it: at least the 900 ms less the tick it was waiting for.
      expect(pauses[0]).toBeGreaterThan(600)
      expect(pauses[0]).toBeLessThan(1_500)
    }))

  it.scopedLive("does not call it for short stalls", () =>
    Effect.gen(function*() {
      const pauses: Array<number> = []
      yield* watchPauses(Duration.millis(600), (ms) => pauses.push(ms))
      for (let i = 0; i < 5; i++) {
        standStill(250)
        yield* Effect.sleep("100 millis")
      }
      expect(pauses).toEqual([])
    }))

  it.scopedLive("stops watching when its scope closes", () =>
    Effect.gen(function*() {
      const pauses: Array<number> = []
      yield* Effect.scoped(watchPauses(Duration.millis(100), (ms) => pauses.push(ms)))
      standStill(500)
      yield* Effect.sleep("400 millis")
      expect(pauses).toEqual([])
    }))
})
