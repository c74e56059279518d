import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

/** One counter's increment: what a node counted since its last flush. */
export interface UsageIncrement {
  readonly workspaceId: WorkspaceId
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string
  readonly metric: string
  /** "" for metrics that are not per model. */
  readonly provider: string
  readonly model: string
  readonly amount: number
}

/** A counter's total over a range. */
export interface UsageTotal {
  readonly day: string
  readonly metric: string
  readonly provider: string
  readonly model: string
  readonly amount: number
}

/** The `usage_counters` table: per workspace, day, metric and model, added to by every node's flushes. */
export class UsageCounterRepo extends Effect.Service<UsageCounterRepo>()("parley/persistence/UsageCounterRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      /**
       * Add every increment in one statement (the caller merged repeats of a
       * key, which one `ON CONFLICT` statement may not hold twice).
       */
      add: (increments: ReadonlyArray<UsageIncrement>) =>
        increments.length === 0 ? Effect.void : sql`
          INSERT INTO usage_counters ${
          sql.insert(increments.map((increment) => ({ ...increment, updatedAt: new Date() })))
        }
          ON CONFLICT (workspace_id, day, metric, provider, model)
          DO UPDATE SET amount = usage_counters.amount + excluded.amount, updated_at = excluded.updated_at`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("UsageCounterRepo.add", { attributes: { "usage.rows": increments.length } })
        ),
      /** The counters of a workspace on the days `[from, to)`. */
      between: (workspaceId: WorkspaceId, from: string, to: string) =>
        sql<{ day: string; metric: string; provider: string; model: string; amount: string }>`
          SELECT to_char(day, 'YYYY-MM-DD') AS day, metric, provider, model, amount::text AS amount
          FROM usage_counters
          WHERE workspace_id = ${workspaceId} AND day >= ${from}::date AND day < ${to}::date`.pipe(
          Effect.map((rows): ReadonlyArray<UsageTotal> => rows.map((row) => ({ ...row, amount: Number(row.amount) }))),
          Effect.orDie,
          Effect.withSpan("UsageCounterRepo.between")
        )
    } as const
  })
}) {}
