/**
 * Running a stepped computation (training, cross-validation) in a fiber
 * without holding the node: it steps for at most a time slice, then yields
 * to the event loop (`setImmediate`, so pending I/O and requests run first)
 * before the next slice.
 */
import { Effect } from "effect"

/** How long a slice may run before yielding, in milliseconds. */
export const SLICE_MILLIS = 8

/** Example updates per step between clock checks. */
const STEP_BUDGET = 64

const yieldToEventLoop: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** Runs `step` until it says done, in slices of about `SLICE_MILLIS`; interruptible between slices. */
export const runInSlices = (step: (budget: number) => boolean): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (;;) {
      const started = performance.now()
      while (performance.now() - started < SLICE_MILLIS) {
        if (step(STEP_BUDGET)) return
      }
      yield* yieldToEventLoop
    }
  })
