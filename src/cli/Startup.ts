import { Console, Effect } from "effect"

/**
 * Start-up failures a person can fix (a locked data directory, missing
 * production settings, an unreachable database) are printed as one clear
 * line on stderr with exit code 1, rather than as a stack trace.
 */
export const reportStartupFailure = <A, E extends { readonly message: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A | void, never, R> =>
  Effect.catchAll(effect, (error) =>
    Effect.zipRight(
      Console.error(`parley: ${error.message}`),
      Effect.sync(() => {
        process.exitCode = 1
      })
    ))
