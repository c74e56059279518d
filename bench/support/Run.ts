/** How a benchmark's program runs: its scope closed at the end, exit 0, or the error printed and exit 1. */
import { Effect } from "effect"
import type { Scope } from "effect"

export const runBench = <A, E>(main: Effect.Effect<A, E, Scope.Scope>): void => {
  Effect.runPromise(Effect.scoped(main)).then(
    () => process.exit(0),
    (error) => {
      console.error(error)
      process.exit(1)
    }
  )
}
