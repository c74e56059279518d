/**
 * `/health/live`, asked every 250 ms beside the fuzzing, as an orchestrator
 * would: every probe that is not answered 200 within the deadline is kept,
 * with when it happened, so a stalled node is caught while it stalls.
 */
import { Effect, Fiber, Ref, Schedule } from "effect"
import { send } from "./RawHttp.js"

/** What the probe saw. */
export interface LivenessReport {
  readonly probes: number
  readonly slowestMillis: number
  /** Probes not answered 200 in time: when (ms since the start) and what happened. */
  readonly misses: ReadonlyArray<string>
}

/** Start probing `port`; the returned effect stops the probe and answers its report. */
export const watchLiveness = (port: number, deadlineMillis: number) =>
  Effect.gen(function*() {
    const started = performance.now()
    const report = yield* Ref.make<LivenessReport>({ probes: 0, slowestMillis: 0, misses: [] })
    const probe = send(port, { method: "GET", target: "/health/live", headers: {} }, deadlineMillis).pipe(
      Effect.flatMap((outcome) =>
        Ref.update(report, (seen) => {
          const millis = "millis" in outcome ? outcome.millis : 0
          const answered = outcome._tag === "Answered" && outcome.status === 200
          const when = Math.round(performance.now() - started)
          return {
            probes: seen.probes + 1,
            slowestMillis: Math.max(seen.slowestMillis, millis),
            misses: answered ? seen.misses : [
              ...seen.misses,
              `at ${when} ms: ${
                outcome._tag === "Answered" ? `status ${outcome.status}` : outcome._tag
              } after ${millis} ms`
            ]
          }
        })
      )
    )
    const fiber = yield* Effect.fork(Effect.repeat(probe, Schedule.spaced("250 millis")))
    return Fiber.interrupt(fiber).pipe(Effect.zipRight(Ref.get(report)))
  })
