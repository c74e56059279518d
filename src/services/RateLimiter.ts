/**
 * Brute-force limits (login, MFA, leads, public tokens) that hold across
 * every node: the counts live in PostgreSQL, never in one node's memory.
 *
 * Each rule counts hits in fixed windows and estimates a sliding window from
 * the last two: `previous × (share of the previous window still in the
 * sliding one) + current`. A hit that takes the estimate over the limit is
 * refused (and still counted, so hammering keeps the door shut); once the
 * hits stop, the estimate falls with time and is gone after two windows, so
 * the rightful user is never locked out for good. Time comes from `Clock`,
 * never from the database, so the window arithmetic is the application's.
 */
import { Clock, Duration, Effect } from "effect"
import * as Crypto from "node:crypto"
import { RateLimited } from "../domain/HttpErrors.js"
import { RateLimitRepo } from "../persistence/RateLimitRepo.js"

/** A limit: at most `limit` hits per `window` on one key (an account, an address). */
export interface RateRule {
  /** A stable name, part of the stored bucket: `login.account`, `mfa.address`. */
  readonly name: string
  readonly limit: number
  readonly window: Duration.DurationInput
}

/** How often one node sweeps old windows away. */
const CLEANUP_EVERY_MILLIS = 60_000

/** The stored bucket of a key: the rule in clear, the key (an email, an address) only as a hash. */
export const bucketOf = (rule: RateRule, key: string): string =>
  `${rule.name}:${Crypto.createHash("sha256").update(key).digest("hex").slice(0, 32)}`

interface Windows {
  readonly millis: number
  readonly current: Date
  readonly previous: Date
  /** Milliseconds since the current window started. */
  readonly offset: number
}

const windowsAt = (rule: RateRule, now: number): Windows => {
  const millis = Math.max(1, Math.round(Duration.toMillis(rule.window)))
  const start = Math.floor(now / millis) * millis
  return { millis, current: new Date(start), previous: new Date(start - millis), offset: Math.floor(now - start) }
}

// The estimate `previous × (1 − offset / millis) + current` is compared scaled by `millis`, in integers,
// so that a hit exactly at the Retry-After instant is accepted whatever the floating point says.

/** Whether one more hit, on top of `current`, takes the estimate over the limit. */
const refuses = (rule: RateRule, windows: Windows, previous: number, current: number): boolean =>
  previous * (windows.millis - windows.offset) + (current + 1) * windows.millis > rule.limit * windows.millis

/**
 * Seconds until one more hit, on top of `current`, would be accepted if nobody hits meanwhile:
 * later in this window while the previous one's share fades, or in the next
 * window once this one's share has faded enough.
 */
const retryAfterSeconds = (rule: RateRule, windows: Windows, previous: number, current: number): number => {
  const { millis, offset } = windows
  const room = rule.limit - current - 1
  const acceptedAt = room >= 0
    ? previous === 0 ? offset : millis - Math.floor((room * millis) / previous)
    : millis + Math.max(0, millis - Math.floor(((rule.limit - 1) * millis) / current))
  return Math.max(1, Math.ceil((acceptedAt - offset) / 1000))
}

/** Brute-force limits shared by every node of a cluster. */
export class RateLimiter extends Effect.Service<RateLimiter>()("parley/services/RateLimiter", {
  scoped: Effect.gen(function*() {
    const repo = yield* RateLimitRepo
    const scope = yield* Effect.scope
    // The longest window this node has seen per rule: a node sweeps only the rules it knows.
    const longest = new Map<string, number>()
    let lastCleanup = Number.NEGATIVE_INFINITY

    const cleanupIfDue = (now: number) =>
      Effect.suspend(() => {
        if (now - lastCleanup < CLEANUP_EVERY_MILLIS) return Effect.void
        lastCleanup = now
        const rules = [...longest]
        return Effect.forEach(rules, ([name, millis]) => repo.purge(`${name}:`, new Date(now - 2 * millis)), {
          discard: true
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("Rate-limit cleanup failed", cause)),
          Effect.withSpan("RateLimiter.cleanup"),
          Effect.forkIn(scope),
          Effect.asVoid
        )
      })

    const consume = Effect.fn("RateLimiter.consume")(
      function*(rule: RateRule, key: string) {
        const now = yield* Clock.currentTimeMillis
        const windows = windowsAt(rule, now)
        longest.set(rule.name, Math.max(longest.get(rule.name) ?? 0, windows.millis))
        yield* cleanupIfDue(now)
        const counts = yield* repo.hit(bucketOf(rule, key), windows.current, windows.previous)
        // `counts.current` already holds this hit: was there room for it?
        if (refuses(rule, windows, counts.previous, counts.current - 1)) {
          const seconds = retryAfterSeconds(rule, windows, counts.previous, counts.current)
          return yield* new RateLimited({
            retryAfterSeconds: seconds,
            message: `Too many attempts; try again in ${seconds} seconds`
          })
        }
      }
    )

    const peek = Effect.fn("RateLimiter.peek")(
      function*(rule: RateRule, key: string) {
        const windows = windowsAt(rule, yield* Clock.currentTimeMillis)
        const counts = yield* repo.counts(bucketOf(rule, key), windows.current, windows.previous)
        return refuses(rule, windows, counts.previous, counts.current)
      }
    )

    // A lock that stops counting once it is shut (failure limits an attacker can trip for someone
    // else) holds at most about `limit` hits, so it opens about one window after it shut: its
    // Retry-After is capped at the window, never the nearly two windows a hammered count would give.
    const refuseWhenOver = Effect.fn("RateLimiter.refuseWhenOver")(
      function*(rule: RateRule, key: string) {
        const windows = windowsAt(rule, yield* Clock.currentTimeMillis)
        const counts = yield* repo.counts(bucketOf(rule, key), windows.current, windows.previous)
        if (refuses(rule, windows, counts.previous, counts.current)) {
          const seconds = Math.min(
            retryAfterSeconds(rule, windows, counts.previous, counts.current),
            Math.ceil(windows.millis / 1000)
          )
          return yield* new RateLimited({
            retryAfterSeconds: seconds,
            message: `Too many attempts; try again in ${seconds} seconds`
          })
        }
      }
    )

    const reset = Effect.fn("RateLimiter.reset")(
      function*(rule: RateRule, key: string) {
        yield* repo.reset(bucketOf(rule, key))
      }
    )

    return {
      /** Count one hit on `key`; fails with `RateLimited` when it takes the estimate over the limit. */
      consume: (rule: RateRule, key: string): Effect.Effect<void, RateLimited> => consume(rule, key),
      /** Whether a hit on `key` would be refused now, without counting one. */
      peek: (rule: RateRule, key: string): Effect.Effect<boolean> => peek(rule, key),
      /**
       * Refuse (`RateLimited`) when a hit on `key` would be refused now, without counting one: for
       * failure limits, whose failures are counted when they happen. Retry-After is at most the window.
       */
      refuseWhenOver: (rule: RateRule, key: string): Effect.Effect<void, RateLimited> => refuseWhenOver(rule, key),
      /** Forget `key`'s hits under `rule` (a successful login clears the account's failures). */
      reset: (rule: RateRule, key: string): Effect.Effect<void> => reset(rule, key)
    } as const
  }),
  dependencies: [RateLimitRepo.Default]
}) {}
