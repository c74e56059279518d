/**
 * The database: a PostgreSQL server when `DATABASE_URL` is set, otherwise the
 * embedded PostgreSQL in `PARLEY_DATA_DIR`; and the migrator that brings
 * either to the current schema. Names are camelCase in code, snake_case in SQL.
 */
import { NodeContext } from "@effect/platform-node"
import { Migrator, SqlClient, SqlError } from "@effect/sql"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { type ConfigError, Context, Effect, Layer, Option, Redacted, Schedule, String } from "effect"
import * as Path from "node:path"
import Pg from "pg"
import { DatabasePoolMax, DatabaseUrl, DataDir } from "../config/Settings.js"
import { DatabaseInfo } from "./DatabaseInfo.js"
import { acquireDataDirLock, type DataDirLocked } from "./DataDirLock.js"
import migration0001 from "./migrations/0001_installation.js"
import migration0002 from "./migrations/0002_identity.js"
import migration0003 from "./migrations/0003_account_controls.js"
import migration0004 from "./migrations/0004_assistants.js"
import migration0005 from "./migrations/0005_runtime.js"
import migration0006 from "./migrations/0006_imports.js"
import migration0007 from "./migrations/0007_deployments.js"
import migration0008 from "./migrations/0008_turn_failures.js"
import migration0009 from "./migrations/0009_automatic_nlu_threshold.js"
import migration0010 from "./migrations/0010_vault.js"
import migration0011 from "./migrations/0011_workspace_tools.js"
import migration0012 from "./migrations/0012_agent_llm_settings.js"
import migration0013 from "./migrations/0013_workspace_admin.js"
import migration0014 from "./migrations/0014_ai_agents.js"
import migration0015 from "./migrations/0015_ai_agent_guardrails.js"
import migration0016 from "./migrations/0016_ai_agent_knowledge.js"
import migration0017 from "./migrations/0017_ai_agent_evals.js"
import migration0018 from "./migrations/0018_workflows.js"
import migration0019 from "./migrations/0019_knowledge_ranking.js"
import migration0020 from "./migrations/0020_workflow_chains.js"
import migration0021 from "./migrations/0021_chain_runs.js"
import migration0022 from "./migrations/0022_workflow_sim_sessions.js"
import migration0023 from "./migrations/0023_knowledge_pdf.js"
import migration0024 from "./migrations/0024_knowledge_vectors.js"
import migration0025 from "./migrations/0025_knowledge_pgvector.js"
import * as PgliteClient from "./PgliteClient.js"

/** Every migration, in order; the migrator records which ran. */
export const migrations = {
  "0001_installation": migration0001,
  "0002_identity": migration0002,
  "0003_account_controls": migration0003,
  "0004_assistants": migration0004,
  "0005_runtime": migration0005,
  "0006_imports": migration0006,
  "0007_deployments": migration0007,
  "0008_turn_failures": migration0008,
  "0009_automatic_nlu_threshold": migration0009,
  "0010_vault": migration0010,
  "0011_workspace_tools": migration0011,
  "0012_agent_llm_settings": migration0012,
  "0013_workspace_admin": migration0013,
  "0014_ai_agents": migration0014,
  "0015_ai_agent_guardrails": migration0015,
  "0016_ai_agent_knowledge": migration0016,
  "0017_ai_agent_evals": migration0017,
  "0018_workflows": migration0018,
  "0019_knowledge_ranking": migration0019,
  "0020_workflow_chains": migration0020,
  "0021_chain_runs": migration0021,
  "0022_workflow_sim_sessions": migration0022,
  "0023_knowledge_pdf": migration0023,
  "0024_knowledge_vectors": migration0024,
  "0025_knowledge_pgvector": migration0025
} as const

/** The id of the newest migration, which readiness expects to find applied. */
export const latestMigrationId = Math.max(...Object.keys(migrations).map((id) => Number.parseInt(id, 10)))

/**
 * Column names map between snake_case (SQL) and camelCase (TypeScript); JSON values are
 * left as written. With `transformJson` on (the clients' default), the keys inside every
 * json/jsonb value were renamed on the way in and out: a tool argument `order_id` came
 * back as `orderId`, a user's metadata lost its keys' spelling.
 */
const names = {
  transformQueryNames: String.camelToSnake,
  transformResultNames: String.snakeToCamel,
  transformJson: false
}

const describeUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname}`
  } catch {
    return "server"
  }
}

type Database = Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient | DatabaseInfo,
  SqlError.SqlError | ConfigError.ConfigError | DataDirLocked
>

const openPool = (url: Redacted.Redacted, maxConnections: number) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const pool = new Pg.Pool({
          connectionString: Redacted.value(url),
          max: maxConnections,
          connectionTimeoutMillis: 5_000,
          idleTimeoutMillis: 30_000,
          application_name: "parley",
          // A node that freezes mid-transaction must not hold its row locks for as long as it is frozen: the
          // server ends such a session (no request takes this long; the handler time-out is 30 s).
          idle_in_transaction_session_timeout: 30_000
        })
        // An idle client's connection error must not crash the process; the pool replaces it.
        pool.on("error", () => {})
        try {
          await pool.query("SELECT 1")
          return pool
        } catch (cause) {
          await pool.end()
          throw cause
        }
      },
      catch: (cause) => new SqlError.SqlError({ cause, message: "Cannot connect to the database at DATABASE_URL" })
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption("5 seconds"))
  )

const server = (url: Redacted.Redacted): Database =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const pool = yield* openPool(url, yield* DatabasePoolMax).pipe(
        // A node may start before its database: keep trying for a minute.
        Effect.retry(
          Schedule.exponential("250 millis").pipe(
            Schedule.union(Schedule.spaced("5 seconds")),
            Schedule.upTo("60 seconds"),
            Schedule.tapInput((error: SqlError.SqlError) =>
              Effect.logWarning("Database not reachable yet, retrying", `${error.cause}`)
            )
          )
        )
      )
      const client = yield* PgClient.fromPool({ acquire: Effect.succeed(pool), applicationName: "parley", ...names })
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(DatabaseInfo, {
          kind: "server",
          location: describeUrl(Redacted.value(url)),
          poolStats: Effect.sync(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }))
        })
      )
    })
  ).pipe(Layer.provide(PgliteClient.reactivity))

const embedded = (dataDir: string): Database => {
  const dir = Path.resolve(dataDir)
  return Layer.scopedContext(
    Effect.gen(function*() {
      yield* acquireDataDirLock(dir)
      const { client, poolStats } = yield* PgliteClient.make({ dataDir: Path.join(dir, "pg"), ...names })
      return Context.make(PgClient.PgClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(DatabaseInfo, { kind: "embedded", location: dir, poolStats })
      )
    })
  ).pipe(Layer.provide(PgliteClient.reactivity))
}

/** The SQL client of this node: a PostgreSQL server, or the embedded default. */
export const SqlLive = Layer.unwrapEffect(
  Effect.map(
    Effect.all([DatabaseUrl, DataDir]),
    ([url, dataDir]) => Option.match(url, { onSome: server, onNone: () => embedded(dataDir) })
  )
)

/** Runs every pending migration, under the migrator's lock, when built. */
export const MigratorLive = PgMigrator.layer({ loader: Migrator.fromRecord(migrations) }).pipe(
  Layer.provide(NodeContext.layer)
)
