import { Console, Effect } from "effect"

const messageOf = (value: unknown): string | undefined =>
  typeof value === "object" && value !== null && "message" in value && typeof value.message === "string" &&
    value.message !== ""
    ? value.message
    : undefined

/** What went wrong, in one line: the failure's message and its cause's (e.g. `listen EADDRINUSE ...`). */
export const describeFailure = (
  error: { readonly _tag?: string; readonly message?: string; readonly cause?: unknown }
) =>
  [messageOf(error) ?? error._tag ?? "start-up failed", messageOf(error.cause)].filter((part) => part !== undefined)
    .join(": ")

/**
 * Start-up failures a person can fix (a locked data directory, missing
 * production settings, an unreachable database, a port in use) are printed
 * as one clear line on stderr with exit code 1, rather than as a stack trace.
 */
export const reportStartupFailure = <A, E extends { readonly _tag?: string; readonly message?: string }, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A | void, never, R> =>
  Effect.catchAll(effect, (error) =>
    Effect.zipRight(
      Console.error(`parley: ${describeFailure(error)}`),
      Effect.sync(() => {
        process.exitCode = 1
      })
    ))
