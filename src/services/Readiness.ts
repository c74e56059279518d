import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { CheckResult, Readiness as ReadinessReport } from "../domain/Health.js"
import { NotReady } from "../domain/HttpErrors.js"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"
import { latestMigrationId } from "../persistence/Sql.js"

/** How long a readiness check may wait on the database. */
const CHECK_TIMEOUT = "2 seconds"

/** Whether this node can serve: the database answers and holds every migration. */
export class Readiness extends Effect.Service<Readiness>()("parley/services/Readiness", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const database = yield* DatabaseInfo

    const migrations = sql<{ latest: number | null }>`SELECT max(migration_id) AS latest FROM effect_sql_migrations`
      .pipe(
        Effect.map(([row]): CheckResult => {
          const latest = row?.latest ?? 0
          return latest >= latestMigrationId
            ? { ok: true, detail: `${latest} applied` }
            : { ok: false, detail: `${latest} of ${latestMigrationId} applied` }
        })
      )

    const check = Effect.gen(function*() {
      const result = yield* migrations.pipe(
        // A query stuck on a dead connection may not stop at once when interrupted: do not wait for it.
        Effect.disconnect,
        Effect.timeoutFail({
          duration: CHECK_TIMEOUT,
          onTimeout: () => new Error(`no answer within ${CHECK_TIMEOUT}`)
        }),
        Effect.either
      )
      const checks: Record<string, CheckResult> = result._tag === "Right"
        ? { database: { ok: true, detail: `${database.kind} (${database.location})` }, migrations: result.right }
        : {
          database: { ok: false, detail: `${database.kind} database unreachable: ${describe(result.left)}` },
          migrations: { ok: false, detail: "unknown while the database is unreachable" }
        }
      if (Object.values(checks).every((check) => check.ok)) {
        return { status: "ready", checks } satisfies ReadinessReport
      }
      return yield* new NotReady({ message: "Not ready", checks })
    }).pipe(Effect.withSpan("Readiness.check"))

    return { check } as const
  })
}) {}

const messageOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? error.message
    : undefined

/** The error's message and, for a database error, its cause's (e.g. `connect ECONNREFUSED`). */
const describe = (error: unknown): string => {
  const cause = typeof error === "object" && error !== null && "cause" in error ? messageOf(error.cause) : undefined
  return [messageOf(error) ?? String(error), cause].filter((part) => part !== undefined && part !== "").join(": ")
}
