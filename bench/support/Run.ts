/**
 * How a benchmark's program runs: the bundle the nodes run built first when a
 * source is newer than it (so a run measures the sources as they are), its
 * scope closed at the end, exit 0, or the error printed and exit 1.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import { ensureBundle } from "../../scripts/bundle.mjs"

export const runBench = <A, E>(main: Effect.Effect<A, E, Scope.Scope>): void => {
  Effect.runPromise(Effect.zipRight(Effect.promise(ensureBundle), Effect.scoped(main))).then(
    () => process.exit(0),
    (error) => {
      console.error(error)
      process.exit(1)
    }
  )
}
