/**
 * The full collection run after an overload: without any command-line flag,
 * it reaches V8's collector and frees what nothing refers to any more.
 */
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { collectGarbage } from "../../../src/observability/GarbageCollection.js"

it.effect("frees an unreachable allocation at once", () =>
  Effect.gen(function*() {
    let garbage: Array<{ readonly n: number; readonly text: string }> | undefined = Array.from(
      { length: 400_000 },
      (_, n) => ({ n, text: `row ${n} `.repeat(8) })
    )
    expect(garbage.length).toBe(400_000)
    garbage = undefined
    const collected = yield* collectGarbage
    // About 60 MB were allocated; most of it must be gone after the collection.
    expect(collected.heapUsedBefore - collected.heapUsedAfter).toBeGreaterThan(30 * 1024 * 1024)
    expect(collected.millis).toBeGreaterThan(0)
  }))
