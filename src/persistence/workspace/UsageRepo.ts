import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

/** A count on one UTC day (`YYYY-MM-DD`). */
export interface DailyCount {
  readonly day: string
  readonly amount: number
}

/** The bytes a workspace stored before a range, and what it added each day of the range. */
export interface StorageGrowth {
  readonly before: number
  readonly daily: ReadonlyArray<DailyCount>
}

const daily = (rows: ReadonlyArray<{ day: string; amount: string }>): ReadonlyArray<DailyCount> =>
  rows.map((row) => ({ day: row.day, amount: Number(row.amount) }))

/**
 * Usage read from the rows Parley writes anyway: conversations and turns from
 * the runtime's tables, storage from the size of the workspace's rows. No
 * table of its own, so counting costs a turn nothing.
 */
export class UsageRepo extends Effect.Service<UsageRepo>()("parley/persistence/UsageRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      /** Conversations started per UTC day in `[from, to)`. */
      sessionsPerDay: (workspaceId: WorkspaceId, from: Date, to: Date) =>
        sql<{ day: string; amount: string }>`
          SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::text AS amount
          FROM runtime_sessions
          WHERE workspace_id = ${workspaceId} AND created_at >= ${from} AND created_at < ${to}
          GROUP BY 1`.pipe(Effect.map(daily), Effect.orDie, Effect.withSpan("UsageRepo.sessionsPerDay")),
      /** Turns answered per UTC day in `[from, to)`; a session's opening (turn 0) is not one. */
      turnsPerDay: (workspaceId: WorkspaceId, from: Date, to: Date) =>
        sql<{ day: string; amount: string }>`
          SELECT to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::text AS amount
          FROM runtime_turns t JOIN runtime_sessions s ON s.id = t.session_id
          WHERE s.workspace_id = ${workspaceId} AND t.turn > 0 AND t.created_at >= ${from} AND t.created_at < ${to}
          GROUP BY 1`.pipe(Effect.map(daily), Effect.orDie, Effect.withSpan("UsageRepo.turnsPerDay")),
      /**
       * The stored size (`pg_column_size` of each row: its bytes on disk,
       * compressed values as compressed, without indexes) of the workspace's
       * rows still stored, by the day each was created: those created before
       * `from` in one sum. A flow counts from its Assistant's creation.
       */
      storageGrowth: (workspaceId: WorkspaceId, from: Date, to: Date) =>
        sql<{ day: string | null; amount: string }>`
          WITH sized AS (
            SELECT created_at, pg_column_size(a.*) AS bytes FROM assistants a
              WHERE workspace_id = ${workspaceId} AND created_at < ${to}
            UNION ALL SELECT created_at, pg_column_size(i.*) FROM assistant_intents i
              WHERE workspace_id = ${workspaceId} AND created_at < ${to}
            UNION ALL SELECT a.created_at, pg_column_size(f.*) FROM assistant_flows f
              JOIN assistants a ON a.id = f.agent_id WHERE f.workspace_id = ${workspaceId} AND a.created_at < ${to}
            UNION ALL SELECT created_at, pg_column_size(d.*) FROM deployments d
              WHERE workspace_id = ${workspaceId} AND created_at < ${to}
            UNION ALL SELECT created_at, pg_column_size(m.*) FROM imports m
              WHERE workspace_id = ${workspaceId} AND created_at < ${to}
            UNION ALL SELECT created_at, pg_column_size(s.*) FROM runtime_sessions s
              WHERE workspace_id = ${workspaceId} AND created_at < ${to}
            UNION ALL SELECT t.created_at, pg_column_size(t.*) FROM runtime_turns t
              JOIN runtime_sessions s ON s.id = t.session_id
              WHERE s.workspace_id = ${workspaceId} AND t.created_at < ${to}
          )
          SELECT CASE WHEN created_at < ${from} THEN NULL
              ELSE to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') END AS day,
            sum(bytes)::text AS amount
          FROM sized GROUP BY 1`.pipe(
          Effect.map((rows): StorageGrowth => ({
            before: Number(rows.find((row) => row.day === null)?.amount ?? 0),
            daily: daily(rows.flatMap((row) => (row.day === null ? [] : [{ day: row.day, amount: row.amount }])))
          })),
          Effect.orDie,
          Effect.withSpan("UsageRepo.storageGrowth")
        ),
      /** Members of the workspace and its invitations not yet accepted nor expired. */
      seats: (workspaceId: WorkspaceId, now: Date) =>
        sql<{ members: string; invitations: string }>`
          SELECT (SELECT count(*) FROM memberships WHERE workspace_id = ${workspaceId})::text AS members,
            (SELECT count(*) FROM invitations WHERE workspace_id = ${workspaceId} AND expires_at > ${now})::text
              AS invitations`.pipe(
          Effect.map(([row]) => ({ members: Number(row!.members), invitations: Number(row!.invitations) })),
          Effect.orDie,
          Effect.withSpan("UsageRepo.seats")
        )
    } as const
  })
}) {}
