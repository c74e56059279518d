import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"

/** The hits of one bucket in its current and previous fixed windows. */
export const WindowCounts = Schema.Struct({
  current: Schema.Number,
  previous: Schema.Number
})
export type WindowCounts = typeof WindowCounts.Type

const Windows = Schema.Struct({ bucket: Schema.String, current: Schema.DateFromSelf, previous: Schema.DateFromSelf })

/** The `rate_limit_counters` table: hits per bucket and fixed window, shared by every node. */
export class RateLimitRepo extends Effect.Service<RateLimitRepo>()("parley/persistence/RateLimitRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // One statement: the upsert is atomic across nodes, and the previous window is no longer written to.
    const hit = SqlSchema.single({
      Request: Windows,
      Result: WindowCounts,
      execute: ({ bucket, current, previous }) =>
        sql`
          WITH hit AS (
            INSERT INTO rate_limit_counters (bucket, window_start, hits) VALUES (${bucket}, ${current}, 1)
            ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counters.hits + 1
            RETURNING hits
          )
          SELECT hit.hits AS current, COALESCE((
            SELECT hits FROM rate_limit_counters WHERE bucket = ${bucket} AND window_start = ${previous}
          ), 0) AS previous
          FROM hit`
    })

    const counts = SqlSchema.single({
      Request: Windows,
      Result: WindowCounts,
      execute: ({ bucket, current, previous }) =>
        sql`
          SELECT
            COALESCE(SUM(hits) FILTER (WHERE window_start = ${current}), 0)::int AS current,
            COALESCE(SUM(hits) FILTER (WHERE window_start = ${previous}), 0)::int AS previous
          FROM rate_limit_counters
          WHERE bucket = ${bucket} AND window_start IN (${current}, ${previous})`
    })

    return {
      /** Count one hit in the current window; answers both windows' counts, this hit included. */
      hit: (bucket: string, current: Date, previous: Date) =>
        hit({ bucket, current, previous }).pipe(Effect.orDie, Effect.withSpan("RateLimitRepo.hit")),
      /** Both windows' counts, without counting. */
      counts: (bucket: string, current: Date, previous: Date) =>
        counts({ bucket, current, previous }).pipe(Effect.orDie, Effect.withSpan("RateLimitRepo.counts")),
      /** Forget every window of a bucket. */
      reset: (bucket: string) =>
        sql`DELETE FROM rate_limit_counters WHERE bucket = ${bucket}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("RateLimitRepo.reset")
        ),
      /** Delete the windows that started before `before` in the buckets whose names start with `prefix`. */
      purge: (prefix: string, before: Date) =>
        sql`DELETE FROM rate_limit_counters WHERE starts_with(bucket, ${prefix}) AND window_start < ${before}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("RateLimitRepo.purge")
        )
    } as const
  })
}) {}
