/**
 * What a turn costs, measured on this machine in one run: turns per second,
 * latency and database work per turn of an echo Assistant over HTTP, on a
 * Parley cluster of 1 and of 3 nodes (separate processes, the production
 * composition), next to a baseline measured with the same load in the same
 * run: a bare Node `http` server doing a turn's transaction with `pg`
 * (`baseline.ts`).
 *
 * Each target gets a 3 s warm-up at 50 connections, 10 s idle (to measure
 * its background database work, which the "net" figures subtract), then 10 s
 * at 1 and 10 s at 50 connections (autocannon; `Load.ts`). Database counters
 * are read 11 s after the load stops, since PostgreSQL publishes an idle
 * backend's statistics up to 10 s late.
 *
 * A fresh database on the server (PARLEY_TEST_PG_URL, default
 * postgres://postgres@127.0.0.1:5432), dropped at the end. Prints only.
 *
 *   npm run bench:turns
 */
import { Duration, Effect } from "effect"
import { spawn } from "node:child_process"
import * as Os from "node:os"
import { fileURLToPath } from "node:url"
import type Pg from "pg"
import { localCluster } from "../../test/support/LocalCluster.js"
import { connectedClient, emptyDatabase } from "../../test/support/TestDatabase.js"
import { benchNodeEnv, loadAverage, parleyTarget, verdict } from "../support/Parley.js"
import { runBench } from "../support/Run.js"
import { load, type LoadResult, percentile, type Target } from "./Load.js"

const SESSIONS = 200
const CONNECTIONS = [1, 50] as const
const WARM_UP_SECONDS = 3
const IDLE_SECONDS = 10
const MEASURE_SECONDS = 10
/** PostgreSQL 15 publishes an idle backend's counters after up to 10 s (PGSTAT_IDLE_INTERVAL). */
const STATS_SETTLE = Duration.seconds(11)
const IDENTITY_TABLES = ["sessions", "users", "memberships", "api_tokens"]
/** One environment for both clusters, which share the database and its sealed secrets. */
const NODE_ENV = benchNodeEnv()

interface Counters {
  readonly at: number
  readonly xacts: number
  readonly walSyncs: number
  readonly identityScans: number
  /** Commits in the server's other databases: what else moved the server-wide WAL counter. */
  readonly otherXacts: number
}

const readCounters = (pg: Pg.Client) =>
  Effect.promise(async (): Promise<Counters> => {
    const { rows } = await pg.query<{ xacts: string; wal_syncs: string; identity_scans: string; other_xacts: string }>(
      `SELECT
         (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS xacts,
         (SELECT wal_sync FROM pg_stat_wal) AS wal_syncs,
         (SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)
            FROM pg_stat_user_tables WHERE relname = ANY($1)) AS identity_scans,
         (SELECT coalesce(sum(xact_commit), 0) FROM pg_stat_database
            WHERE datname IS DISTINCT FROM current_database()) AS other_xacts`,
      [IDENTITY_TABLES]
    )
    const row = rows[0]!
    return {
      at: performance.now(),
      xacts: Number(row.xacts),
      walSyncs: Number(row.wal_syncs),
      identityScans: Number(row.identity_scans),
      otherXacts: Number(row.other_xacts)
    }
  })

/** Per second, between two readings. */
interface Rates {
  readonly xacts: number
  readonly walSyncs: number
}
const rates = (before: Counters, after: Counters): Rates => {
  const seconds = (after.at - before.at) / 1000
  return { xacts: (after.xacts - before.xacts) / seconds, walSyncs: (after.walSyncs - before.walSyncs) / seconds }
}

/** One line of the table. */
interface Measurement {
  readonly target: string
  readonly connections: number
  readonly turnsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly failed: number
  readonly turns: number
  readonly xactsPerTurn: number
  readonly netXactsPerTurn: number
  readonly walSyncs: number
  readonly walSyncsPerTurn: number
  readonly netWalSyncsPerTurn: number
  readonly identityScans: number
  readonly otherXacts: number
}

const measurement = (
  target: string,
  connections: number,
  result: LoadResult,
  before: Counters,
  after: Counters,
  background: Rates
): Measurement => {
  const seconds = (after.at - before.at) / 1000
  const turns = Math.max(result.ok, 1)
  const xacts = after.xacts - before.xacts
  const walSyncs = after.walSyncs - before.walSyncs
  return {
    target,
    connections,
    turnsPerSecond: result.ok / result.seconds,
    p50: percentile(result.latencies, 50),
    p99: percentile(result.latencies, 99),
    failed: result.failed,
    turns: result.ok,
    xactsPerTurn: xacts / turns,
    netXactsPerTurn: (xacts - background.xacts * seconds) / turns,
    walSyncs,
    walSyncsPerTurn: walSyncs / turns,
    netWalSyncsPerTurn: (walSyncs - background.walSyncs * seconds) / turns,
    identityScans: after.identityScans - before.identityScans,
    otherXacts: after.otherXacts - before.otherXacts
  }
}

/** Warm up, measure the idle background, then each connection count. */
const measure = (label: string, target: Target, pg: Pg.Client) =>
  Effect.gen(function*() {
    const start = performance.now()
    const elapsed = () => `${((performance.now() - start) / 1000).toFixed(0)} s`
    const warmUp = yield* Effect.promise(() => load(target, 50, WARM_UP_SECONDS))
    if (warmUp.ok === 0) return yield* Effect.dieMessage(`${label}: no turn succeeded in the warm-up`)
    yield* Effect.sleep(STATS_SETTLE)
    const idle = yield* readCounters(pg)
    yield* Effect.sleep(Duration.seconds(IDLE_SECONDS))
    let before = yield* readCounters(pg)
    const background = rates(idle, before)
    const measurements: Array<Measurement> = []
    for (const connections of CONNECTIONS) {
      const result = yield* Effect.promise(() => load(target, connections, MEASURE_SECONDS))
      yield* Effect.sleep(STATS_SETTLE)
      const after = yield* readCounters(pg)
      measurements.push(measurement(label, connections, result, before, after, background))
      before = after
    }
    console.log(`${label}: measured in ${elapsed()} (warm-up, idle, ${CONNECTIONS.join(" and ")} connections)`)
    return { label, background, measurements }
  })

/** The baseline server (`baseline.ts`) in its own process, for the scope. */
const baselineServer = (databaseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ url: string; stop: () => Promise<void> }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", fileURLToPath(new URL("./baseline.ts", import.meta.url))],
          {
            cwd: fileURLToPath(new URL("../../", import.meta.url)),
            env: { PATH: process.env["PATH"] ?? "", DATABASE_URL: databaseUrl, PORT: "0", SESSIONS: String(SESSIONS) },
            stdio: ["ignore", "pipe", "pipe"]
          }
        )
        let output = ""
        const exited = new Promise<void>((done) => child.on("exit", () => done()))
        child.stderr.on("data", (chunk) => (output += chunk))
        child.stdout.on("data", (chunk) => {
          output += chunk
          const port = /listening (\d+)/.exec(output)?.[1]
          if (port !== undefined) {
            resolve({
              url: `http://127.0.0.1:${port}`,
              stop: () => {
                if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
                return exited
              }
            })
          }
        })
        void exited.then(() => reject(new Error(`the baseline server ended before it listened:\n${output}`)))
      })
    ),
    (server) => Effect.promise(server.stop)
  )

const parley = (nodes: number, databaseUrl: string, pg: Pg.Client) =>
  Effect.scoped(
    Effect.gen(function*() {
      const label = `Parley, ${nodes} node${nodes === 1 ? "" : "s"}`
      const start = performance.now()
      const cluster = yield* localCluster({ nodes, databaseUrl, env: NODE_ENV })
      const target = yield* parleyTarget(cluster.nodes.map((node) => node.url), SESSIONS)
      console.log(
        `${label}: started, with ${SESSIONS} sessions, in ${((performance.now() - start) / 1000).toFixed(0)} s`
      )
      return yield* measure(label, target, pg)
    })
  )

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-")

/** A column of the table: two header lines, a width, and its cell (given the baseline at the same connections). */
type Column = readonly [string, string, number, (m: Measurement, base: Measurement) => string]

const columns: ReadonlyArray<Column> = [
  ["", "", 16, (m) => m.target],
  ["", "conn", 5, (m) => String(m.connections)],
  ["turns/s", "", 9, (m) => fixed(m.turnsPerSecond, 0)],
  ["p50", "ms", 8, (m) => fixed(m.p50, 2)],
  ["p99", "ms", 8, (m) => fixed(m.p99, 2)],
  ["xacts/turn", "raw", 12, (m) => fixed(m.xactsPerTurn, 2)],
  ["", "net", 7, (m) => fixed(m.netXactsPerTurn, 2)],
  ["WAL syncs/turn", "raw", 16, (m) => fixed(m.walSyncsPerTurn, 2)],
  ["", "net", 7, (m) => fixed(m.netWalSyncsPerTurn, 2)],
  ["identity", "scans/turn", 12, (m, base) => m === base ? "-" : fixed(m.identityScans / Math.max(m.turns, 1), 3)],
  ["non-2xx", "", 9, (m) => String(m.failed)],
  [
    "vs baseline",
    "turns/s",
    13,
    (m, base) => m === base ? "" : `${fixed((100 * m.turnsPerSecond) / base.turnsPerSecond, 0)}%`
  ],
  ["", "p50", 8, (m, base) => m === base ? "" : `${fixed(m.p50 / base.p50, 1)}x`],
  ["other DBs'", "commits", 12, (m) => String(m.otherXacts)]
]

const printTable = (measurements: ReadonlyArray<Measurement>) => {
  const baseline = (connections: number) =>
    measurements.find((m) => m.target === "baseline" && m.connections === connections)!
  const line = (cell: (column: Column) => string) =>
    console.log(
      columns.map((column, i) => i === 0 ? cell(column).padEnd(column[2]) : cell(column).padStart(column[2])).join("")
    )
  console.log("")
  line(([header]) => header)
  line(([, header]) => header)
  for (const m of measurements) line(([, , , cell]) => cell(m, baseline(m.connections)))
}

const printTargets = (
  baseline: ReadonlyArray<Measurement>,
  runs: ReadonlyArray<{ readonly label: string; readonly measurements: ReadonlyArray<Measurement> }>
) => {
  const at = (measurements: ReadonlyArray<Measurement>, connections: number) =>
    measurements.find((m) => m.connections === connections)!
  const line = (target: string, figures: ReadonlyArray<string>) =>
    console.log(`  ${target.padEnd(70)}${figures.join("   ")}`)
  console.log("\ntargets")
  line(
    "turns/s at 50 connections >= 25% of the baseline's",
    runs.map(({ label, measurements }) => {
      const share = at(measurements, 50).turnsPerSecond / at(baseline, 50).turnsPerSecond
      return `${label}: ${(100 * share).toFixed(0)}% ${verdict(share >= 0.25)}`
    })
  )
  line(
    "<= 3 WAL syncs per turn at 1 connection (net of idle background)",
    runs.map(({ label, measurements }) => {
      const m = at(measurements, 1)
      // pg_stat_wal counts the whole server: commits elsewhere make the figure say little.
      const noisy = m.otherXacts > 0.1 * m.walSyncs
        ? ` (but other databases committed ${m.otherXacts} meanwhile: unreliable)`
        : ""
      return `${label}: ${m.netWalSyncsPerTurn.toFixed(2)} ${verdict(m.netWalSyncsPerTurn <= 3)}${noisy}`
    })
  )
  line(
    "p50 at 1 connection < 5 ms",
    runs.map(({ label, measurements }) => {
      const p50 = at(measurements, 1).p50
      return `${label}: ${p50.toFixed(2)} ms ${verdict(p50 < 5)}`
    })
  )
  line(
    "no per-request authentication read (identity-table scans/turn < 0.01)",
    runs.map(({ label, measurements }) => {
      const scans = measurements.reduce((sum, m) => sum + m.identityScans, 0)
      const turns = measurements.reduce((sum, m) => sum + m.turns, 0)
      return `${label}: ${scans} in ${turns} turns = ${(scans / Math.max(turns, 1)).toFixed(4)} ${
        verdict(scans / Math.max(turns, 1) < 0.01)
      }`
    })
  )
}

const main = Effect.gen(function*() {
  const { name, url } = yield* emptyDatabase
  const pg = yield* connectedClient(url)
  const settings = yield* Effect.promise(() =>
    pg.query<{ name: string; setting: string }>(
      `SELECT name, setting FROM pg_settings
       WHERE name IN ('server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'shared_preload_libraries')`
    )
  )
  const setting = (name: string) => settings.rows.find((row) => row.name === name)?.setting ?? "?"
  const statementsLoaded = setting("shared_preload_libraries").includes("pg_stat_statements")

  console.log(
    `turn benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ` +
      `PostgreSQL ${setting("server_version")} at ${new URL(url).host}; load average ${loadAverage()}`
  )
  console.log(
    `  fsync ${setting("fsync")}, synchronous_commit ${setting("synchronous_commit")}, wal_sync_method ` +
      `${setting("wal_sync_method")}; fresh database ${name}, dropped at the end`
  )
  console.log(
    `  load: autocannon, keep-alive, 1 request in flight per connection: POST /v1/runtime/sessions/{id}/turns ` +
      `{"text":"hello <n>"}, a unique Idempotency-Key each, round-robin over ${SESSIONS} sessions; ` +
      `${WARM_UP_SECONDS} s warm-up at 50 connections, ${MEASURE_SECONDS} s per measurement`
  )
  console.log(
    `  Parley: nodes from the sources (tsx) on loopback, PARLEY_LOG_LEVEL=Warning (production-like logging, ` +
      `no line per request), defaults otherwise (pool of 10 per node, shard settings); on 3 nodes the connections ` +
      `are split over the nodes (17/17/16; the 1 connection goes to node 1), and a turn reaching a node that does ` +
      `not own its session is forwarded to the owner`
  )
  console.log(
    `  baseline: bench/turns/baseline.ts, a bare node:http server in its own process: BEGIN; UPDATE bench_sessions ` +
      `... RETURNING turn; INSERT INTO bench_turns ...; COMMIT (pg, a pool of 10), answers a small JSON`
  )
  console.log(
    `  per turn: deltas of pg_stat_database.xact_commit (this database) and pg_stat_wal.wal_sync (the whole ` +
      `server) over 2xx turns, read ${Duration.toSeconds(STATS_SETTLE)} s after the load stops; "net" subtracts the ` +
      `idle rate measured for ${IDLE_SECONDS} s before (heartbeats, shard locks)`
  )
  console.log(
    `  authentication reads: seq + idx scans of ${IDENTITY_TABLES.join(", ")} (pg_stat_user_tables); ` +
      (statementsLoaded
        ? "pg_stat_statements is preloaded but not used"
        : "pg_stat_statements is not in shared_preload_libraries on this server, so statements are not counted") +
      "\n"
  )

  const server = yield* baselineServer(url)
  const { rows } = yield* Effect.promise(() => pg.query<{ id: string }>("SELECT id FROM bench_sessions"))
  const baseline = yield* measure("baseline", { urls: [server.url], token: "", sessions: rows.map((r) => r.id) }, pg)
  yield* Effect.promise(server.stop)
  const runs = [yield* parley(1, url, pg), yield* parley(3, url, pg)]

  printTable([...baseline.measurements, ...runs.flatMap((run) => run.measurements)])
  console.log(
    `\nidle background (subtracted in "net"): ` +
      [baseline, ...runs].map(({ background, label }) =>
        `${label} ${background.xacts.toFixed(1)} xacts/s, ${background.walSyncs.toFixed(1)} WAL syncs/s`
      ).join("; ")
  )
  printTargets(baseline.measurements, runs)
  console.log(`\nload average at the end: ${loadAverage()}`)
})

runBench(main)
