import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { RunnerAddressSettings } from "../config/Settings.js"
import type { CheckResult, Readiness as ReadinessReport } from "../domain/Health.js"
import { NotReady } from "../domain/HttpErrors.js"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"
import { latestMigrationId } from "../persistence/Sql.js"
import { Admission, type AdmissionStatus, type GateStatus, SATURATION_CALM_MILLIS } from "./Admission.js"

/** How long a readiness check may wait on the database. */
const CHECK_TIMEOUT = "2 seconds"

/**
 * Whether this node can serve: the database answers and holds every
 * migration, and (on a server database) this node's cluster runner is
 * registered and healthy, so the conversations it is sent can be placed. On
 * the embedded database the node is a single runner that needs no
 * registration. A node leaving the cluster on SIGTERM unregisters, so it
 * stops being ready before it stops serving. A saturated node (admission
 * control refusing work, see `Admission`) is not ready either, so a balancer
 * sends new clients elsewhere; it answers that at once, without adding
 * database queries to an overloaded node.
 */
export class Readiness extends Effect.Service<Readiness>()("parley/services/Readiness", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const database = yield* DatabaseInfo
    const runner = yield* RunnerAddressSettings
    const runnerAddress = `${runner.host}:${runner.port}`
    const admission = yield* Admission

    // The cluster's storage creates its table as the cluster starts: until then, and after a shutdown's
    // unregistering, there is no row for this node.
    const cluster: Effect.Effect<CheckResult> = database.kind === "embedded"
      ? Effect.succeed({ ok: true, detail: "single runner (embedded database)" })
      : sql<{ healthy: boolean }>`SELECT healthy FROM cluster_runners WHERE address = ${runnerAddress}`.pipe(
        Effect.map(([row]): CheckResult =>
          row === undefined
            ? { ok: false, detail: `runner ${runnerAddress} not registered` }
            : row.healthy
            ? { ok: true, detail: `runner ${runnerAddress} registered` }
            : { ok: false, detail: `runner ${runnerAddress} registered but not healthy` }
        ),
        Effect.catchAll(() =>
          Effect.succeed<CheckResult>({ ok: false, detail: `runner ${runnerAddress} not registered` })
        )
      )

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
      const load = loadCheck(yield* admission.status)
      if (!load.ok) {
        const skipped = { ok: false, detail: "not checked while the node is saturated" }
        return yield* new NotReady({
          message: "Saturated: this node is refusing work",
          checks: { load, database: skipped, migrations: skipped, cluster: skipped }
        })
      }
      const result = yield* Effect.all([migrations, cluster]).pipe(
        // A query stuck on a dead connection may not stop at once when interrupted: do not wait for it.
        Effect.disconnect,
        Effect.timeoutFail({
          duration: CHECK_TIMEOUT,
          onTimeout: () => new Error(`no answer within ${CHECK_TIMEOUT}`)
        }),
        Effect.either
      )
      const checks: Record<string, CheckResult> = result._tag === "Right"
        ? {
          database: { ok: true, detail: `${database.kind} (${database.location})` },
          migrations: result.right[0],
          cluster: result.right[1],
          load
        }
        : {
          database: { ok: false, detail: `${database.kind} database unreachable: ${describe(result.left)}` },
          migrations: { ok: false, detail: "unknown while the database is unreachable" },
          cluster: { ok: false, detail: "unknown while the database is unreachable" },
          load
        }
      if (Object.values(checks).every((check) => check.ok)) {
        return { status: "ready", checks } satisfies ReadinessReport
      }
      return yield* new NotReady({ message: "Not ready", checks })
    }).pipe(Effect.withSpan("Readiness.check"))

    return { check } as const
  })
}) {}

const gate = (name: string, { inFlight, limit, reserved }: GateStatus) =>
  `${inFlight}${limit === 0 ? "" : ` of ${limit}`} ${name} in flight${
    reserved === 0 ? "" : ` (${reserved} more let in)`
  }`

/** The load check: failing while the node is saturated. */
const loadCheck = (status: AdmissionStatus): CheckResult => {
  const figures = `${gate("turns", status.turns)}, ${gate("requests", status.requests)}`
  return status.saturated
    ? { ok: false, detail: `saturated: refused work within the last ${SATURATION_CALM_MILLIS / 1000} s; ${figures}` }
    : { ok: true, detail: figures }
}

const messageOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string"
    ? error.message
    : undefined

/** The error's message and, for a database error, its cause's (e.g. `connect ECONNREFUSED`). */
const describe = (error: unknown): string => {
  const cause = typeof error === "object" && error !== null && "cause" in error ? messageOf(error.cause) : undefined
  return [messageOf(error) ?? String(error), cause].filter((part) => part !== undefined && part !== "").join(": ")
}
