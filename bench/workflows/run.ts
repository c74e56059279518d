/**
 * What a chain run costs and how soon it recovers, measured on this machine
 * in one run. The chain has three steps, each a published workflow of one
 * node: a JSONata transform (`input.amount * 2`), an http node calling a
 * workspace tool on a loopback server, and another transform.
 *
 * 1. Runs/s on one node (a LocalCluster node on the PostgreSQL server, the
 *    bundle, PARLEY_LOG_LEVEL=Warning; not the embedded database), closed
 *    loop at 1 and 20 concurrent starts for `--seconds` each (15 by
 *    default) after a warm-up: each client starts a run over HTTP and starts
 *    the next when the run has succeeded. The benchmark learns that from a
 *    trigger of its own on `chain_runs` (LISTEN/NOTIFY, sub-millisecond),
 *    not by polling. Next to it, in the same run: the same three steps as a
 *    plain Node + `pg` program writing one row per step (`Baseline.ts`), at
 *    the same concurrency, and the steps' own work alone (the transforms and
 *    the POST, in this process, no database). The overhead per step is
 *    (run time at 1 − own work) / 3, from the client's clock (start request
 *    to end) and from the run's own `created_at` to `finished_at`; with the
 *    node's CPU time and the database's commits per run, the cluster
 *    messages per run, and each step's time in the step log next to its
 *    node executions' own time.
 * 2. Recovery after kill -9 on three nodes: `--kills` times (10 by
 *    default), a run is started whose http step is held open by the tool
 *    server at its first call; the node running the run (the owner of its
 *    execution's shard) is killed with SIGKILL; the recovery time is from the
 *    kill to the tool server receiving the interrupted step's call again
 *    (same idempotency key). The run must then succeed with each completed
 *    step called once. The killed node is started again and given 4 s to
 *    take its shards back before the next kill.
 *
 * A fresh database per part on the server (PARLEY_TEST_PG_URL), dropped at
 * the end. The shard timing settings (PARLEY_SHARD_*) are passed on from the
 * environment when set. Prints only.
 *
 *   npm run bench:workflows
 *   npm run bench:workflows -- --kills 3 --seconds 10
 */
import { Duration, Effect } from "effect"
import * as Os from "node:os"
import Pg from "pg"
import type { ChainRunId } from "../../src/domain/workflows/Ids.js"
import {
  callWorkflow,
  type ChainClient,
  clientAt,
  createChain,
  createStepTool,
  nodeOfRun,
  type StepTool,
  stepTool,
  transformWorkflow,
  untilStatus
} from "../../test/support/ChainRunCluster.js"
import { signUpAt } from "../../test/support/Conversations.js"
import { type ClusterNode, localCluster } from "../../test/support/LocalCluster.js"
import { connectedClient, emptyDatabase } from "../../test/support/TestDatabase.js"
import { benchNodeEnv, loadAverage } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"
import { baseline, createBaselineTables, DOUBLE, LABEL, TOOL_STEP } from "./Baseline.js"

const flag = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`)
  const value = index < 0 ? Number.NaN : Number(process.argv[index + 1])
  return Number.isFinite(value) && value >= 0 ? value : fallback
}

const KILLS = flag("kills", 10)
const SECONDS = flag("seconds", 15)
const CONCURRENCY = [1, 20] as const
const WARM_UP_RUNS = 40
const OWN_WORK_SAMPLES = 300
/** After a restart, before the next kill: the restarted node takes its share of the shards back. */
const REBALANCE = Duration.seconds(4)

const SHARD_SETTINGS = [
  "PARLEY_SHARD_LOCK_EXPIRATION",
  "PARLEY_SHARD_LOCK_REFRESH_INTERVAL",
  "PARLEY_SHARD_REFRESH_INTERVAL",
  "PARLEY_RUNNER_HEALTH_CHECK_INTERVAL"
]
const NODE_ENV: Record<string, string> = {
  ...benchNodeEnv(),
  // The step tool is on loopback, which outbound calls may not reach unless allowed.
  PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32",
  ...Object.fromEntries(SHARD_SETTINGS.flatMap((name) => process.env[name] ? [[name, process.env[name]!]] : []))
}

/** Transactions committed in the current database so far. */
const commits = (pg: Pg.Client) =>
  Effect.promise(() =>
    pg.query<{ xact_commit: string }>(`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)
  ).pipe(Effect.map((result) => Number(result.rows[0]!.xact_commit)))

const ms = (value: number) => `${value.toFixed(1)} ms`
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`
const spread = (values: ReadonlyArray<number>) => `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}`

/** An account (its email verified in place) on `url` with the step tool and the three-step chain. */
const benchChain = (url: string, pg: Pg.Client, tool: StepTool) =>
  Effect.gen(function*() {
    const token = yield* Effect.promise(() => signUpAt(url))
    yield* Effect.promise(() => pg.query(`UPDATE users SET email_verified_at = now()`))
    const client = yield* clientAt(url, token)
    const toolId = yield* createStepTool(client, tool)
    const double = yield* transformWorkflow(client, "Double", DOUBLE, [["amount", "number"]])
    const notify = yield* callWorkflow(client, toolId, TOOL_STEP)
    const label = yield* transformWorkflow(client, "Label", LABEL, [["answer", "object"]])
    const slug = yield* createChain(client, [
      { id: "double", workflowId: double },
      { id: "notify", workflowId: notify },
      { id: "label", workflowId: label }
    ])
    return { token, client, slug }
  })

/**
 * Each run's end as the database commits it: a trigger of the benchmark's on
 * `chain_runs` notifies, and `ended(id)` resolves with the final status.
 */
const runEnds = (databaseUrl: string) =>
  Effect.gen(function*() {
    const listener = yield* connectedClient(databaseUrl)
    yield* Effect.promise(() =>
      listener.query(`
        CREATE FUNCTION bench_run_ended() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('bench_run_ended', NEW.id::text || ' ' || NEW.status); RETURN NEW; END $$;
        CREATE TRIGGER bench_run_ended AFTER UPDATE OF status ON chain_runs FOR EACH ROW
          WHEN (NEW.status IN ('succeeded', 'failed', 'cancelled')) EXECUTE FUNCTION bench_run_ended();
        LISTEN bench_run_ended;
      `)
    )
    const ended = new Map<string, string>()
    const waiting = new Map<string, (status: string) => void>()
    listener.on("notification", (message) => {
      const [id, status] = (message.payload ?? "").split(" ") as [string, string]
      const resolve = waiting.get(id)
      if (resolve === undefined) ended.set(id, status)
      else {
        waiting.delete(id)
        resolve(status)
      }
    })
    return (id: string): Promise<string> => {
      const status = ended.get(id)
      if (status !== undefined) {
        ended.delete(id)
        return Promise.resolve(status)
      }
      return new Promise((resolve) => waiting.set(id, resolve))
    }
  })

interface Loop {
  readonly runs: number
  readonly failed: number
  readonly perSecond: number
  readonly latencies: ReadonlyArray<number>
}

/** `concurrency` clients, each running `once` again and again for `seconds`. */
const closedLoop = (concurrency: number, seconds: number, once: (n: number) => Promise<void>) =>
  Effect.promise(async (): Promise<Loop> => {
    const started = performance.now()
    const until = started + seconds * 1000
    const latencies: Array<number> = []
    let next = 0
    let failed = 0
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const n = next++
        const at = performance.now()
        try {
          await once(n)
          latencies.push(performance.now() - at)
        } catch {
          failed++
        }
      }
    }))
    const elapsed = (performance.now() - started) / 1000
    return { runs: latencies.length, failed, perSecond: latencies.length / elapsed, latencies }
  })

const throughputPart = Effect.gen(function*() {
  const tool = yield* stepTool
  const { url: databaseUrl } = yield* emptyDatabase
  const cluster = yield* localCluster({ nodes: 1, databaseUrl, env: NODE_ENV })
  const url = cluster.nodes[0]!.url
  const pg = yield* connectedClient(databaseUrl)
  const { slug, token } = yield* benchChain(url, pg, tool)
  const ended = yield* runEnds(databaseUrl)
  const pool = new Pg.Pool({ connectionString: databaseUrl, max: 20 })
  yield* Effect.addFinalizer(() => Effect.promise(() => pool.end()))
  yield* Effect.promise(() => createBaselineTables(pg))
  const plain = baseline(pool, `${tool.origin}/step`)

  let phase = ""
  const runIds = new Map<string, Array<string>>()
  const parleyRun = async (n: number) => {
    const response = await fetch(`${url}/v1/workflow-chains/${slug}/run`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ input: { amount: n } })
    })
    const body = (await response.json()) as { readonly id: string }
    if (response.status !== 202) throw new Error(`run answered ${response.status}: ${JSON.stringify(body)}`)
    runIds.get(phase)?.push(body.id)
    const status = await ended(body.id)
    if (status !== "succeeded") throw new Error(`run ${body.id} ${status}`)
  }
  const phaseOf = (name: string) => {
    phase = name
    runIds.set(name, [])
  }

  // Warm both up: the node's code paths and pools, and the baseline's.
  phaseOf("warm")
  const warmUp = Array.from({ length: WARM_UP_RUNS }, (_, n) => n)
  yield* Effect.forEach(warmUp, (n) => Effect.promise(() => parleyRun(n)), { concurrency: 4, discard: true })
  yield* Effect.forEach(warmUp, (n) => Effect.promise(() => plain.run({ amount: n })), {
    concurrency: 4,
    discard: true
  })

  const ownWork = yield* Effect.promise(async () => {
    const times: Array<number> = []
    for (let n = 0; n < OWN_WORK_SAMPLES; n++) {
      const at = performance.now()
      await plain.work({ amount: n })
      times.push(performance.now() - at)
    }
    return times
  })

  const pid = cluster.nodes[0]!.pid
  const results: Array<{ concurrency: number; parley: Loop; plain: Loop; cpu: number; commits: number }> = []
  for (const concurrency of CONCURRENCY) {
    phaseOf(`c${concurrency}`)
    const cpuBefore = cpuMillisOf(pid)
    const commitsBefore = yield* commits(pg)
    const parley = yield* closedLoop(concurrency, SECONDS, parleyRun)
    const cpu = (cpuMillisOf(pid) - cpuBefore) / parley.runs
    // PostgreSQL publishes a backend's counters when it goes idle, at most every second (PGSTAT_MIN_INTERVAL).
    yield* Effect.sleep(Duration.seconds(11))
    const committed = ((yield* commits(pg)) - commitsBefore) / parley.runs
    const baselineLoop = yield* closedLoop(concurrency, SECONDS, (n) => plain.run({ amount: n }).then(() => undefined))
    results.push({ concurrency, parley, plain: baselineLoop, cpu, commits: committed })
  }

  // The runs at 1, as the database has them: created to finished, and each step's attempt with its node executions.
  const ids = runIds.get("c1")!
  const server = yield* Effect.promise(() =>
    pg.query<{ ms: number }>(
      `SELECT extract(epoch FROM finished_at - created_at) * 1000 AS ms FROM chain_runs WHERE id = ANY($1::uuid[])`,
      [ids]
    )
  )
  const steps = yield* Effect.promise(() =>
    pg.query<{ step_id: string; ms: number; work: number }>(
      `SELECT step_id, extract(epoch FROM finished_at - started_at) * 1000 AS ms,
         (SELECT coalesce(sum((node->>'durationMs')::float), 0) FROM jsonb_array_elements(nodes) node) AS work
       FROM chain_run_steps WHERE run_id = ANY($1::uuid[])`,
      [ids]
    )
  )
  const serverMs = server.rows.map((row) => Number(row.ms))
  const work = percentile(ownWork, 50)

  console.log(
    `\n1. one node on the PostgreSQL server (the bundle, LocalCluster); a three-step chain (transform, http to a ` +
      `loopback tool, transform); closed loop, ${SECONDS} s per figure; the baseline is the same steps in plain ` +
      `Node + pg, one row per step`
  )
  for (const { commits, concurrency, cpu, parley, plain: base } of results) {
    console.log(
      `   ${String(concurrency).padStart(2)} concurrent: Parley ${parley.perSecond.toFixed(1)} runs/s (${
        spread(parley.latencies)
      }, ${parley.failed} failed; node CPU ${ms(cpu)} and ${commits.toFixed(0)} PostgreSQL commits per run); ` +
        `baseline ${base.perSecond.toFixed(1)} runs/s (${spread(base.latencies)}, ${base.failed} failed); ` +
        `Parley / baseline ${(parley.perSecond / base.perSecond).toFixed(3)}`
    )
  }
  const activities = yield* Effect.promise(() =>
    pg.query<{ tag: string; count: number }>(
      `SELECT tag, count(*)::int AS count FROM cluster_messages WHERE entity_type = 'Workflow/ChainRun' GROUP BY tag`
    )
  )
  const started = [...runIds.values()].reduce((sum, ids) => sum + ids.length, 0)
  console.log(
    `   cluster messages per run: ${
      activities.rows.map((row) => `${row.tag} ${(row.count / started).toFixed(1)}`).join(", ")
    }`
  )
  const atOne = results[0]!.parley.latencies
  console.log(
    `   the steps' own work (two JSONata transforms and the POST, in this process, ${OWN_WORK_SAMPLES} samples): ` +
      `${spread(ownWork)}`
  )
  console.log(
    `   overhead per step at 1 concurrent, (run - own work) / 3: ${
      ms((percentile(atOne, 50) - work) / 3)
    } from the client's clock (start request to end, p50 ${ms(percentile(atOne, 50))}); ${
      ms((percentile(serverMs, 50) - work) / 3)
    } from the run's created_at to finished_at (p50 ${ms(percentile(serverMs, 50))})`
  )
  for (const step of ["double", "notify", "label"]) {
    const rows = steps.rows.filter((row) => row.step_id === step)
    console.log(
      `   step ${step.padEnd(6)}: its attempt in the step log ${
        spread(rows.map((row) => Number(row.ms)))
      }; its node executions' own time p50 ${ms(percentile(rows.map((row) => Number(row.work)), 50))}`
    )
  }
})

/** The node running the run now; asked again for up to 5 s while its shard's lock is being taken. */
const runningNode = (pg: Pg.Client, nodes: ReadonlyArray<ClusterNode>, runId: ChainRunId) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 50; attempt++) {
      const node = yield* nodeOfRun(pg, nodes, runId)
      if (node !== undefined) return node
      yield* Effect.sleep(Duration.millis(100))
    }
    return yield* Effect.dieMessage(`no node holds the shard of run ${runId}`)
  })

const within = <A>(promise: Promise<A>, what: string) =>
  Effect.promise(() => promise).pipe(
    Effect.timeoutFail({ duration: Duration.seconds(60), onTimeout: () => new Error(what) }),
    Effect.orDie
  )

const recoveryPart = Effect.gen(function*() {
  const startedAt = performance.now()
  const tool = yield* stepTool
  const { url: databaseUrl } = yield* emptyDatabase
  const cluster = yield* localCluster({ nodes: 3, databaseUrl, env: NODE_ENV })
  const pg = yield* connectedClient(databaseUrl)
  const { slug, token } = yield* benchChain(cluster.nodes[0]!.url, pg, tool)
  // The first call under each key is held open: the step is in flight when its node dies.
  tool.answer = (_call, seen) => (seen === 0 ? "hold" : "ok")

  const recoveries: Array<number> = []
  const problems: Array<string> = []
  for (let kill = 1; kill <= KILLS; kill++) {
    const starter = cluster.nodes[kill % cluster.nodes.length]!
    const client: ChainClient = yield* clientAt(starter.url, token)
    const held = tool.next((call) => call.step === TOOL_STEP)
    const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: { amount: kill } } })
    const first = yield* within(held, `kill ${kill}: the http step was never called`)
    const victim = yield* runningNode(pg, cluster.nodes, run.id)
    const again = tool.next((call) => call.key === first.key)
    const killedAt = performance.now()
    victim.kill("SIGKILL")
    yield* Effect.promise(() => victim.exited)
    tool.release()
    const second = yield* within(again, `kill ${kill}: the interrupted step never ran again`)
    recoveries.push(second.at - killedAt)

    const survivor = cluster.nodes.find((node) => node !== victim)!
    const done = yield* untilStatus(yield* clientAt(survivor.url, token), slug, run.id, ["succeeded", "failed"])
    const calls = tool.calls.filter((call) => call.key === first.key).length
    if (done.status !== "succeeded") problems.push(`kill ${kill}: the run ${done.status}`)
    if (calls !== 2) problems.push(`kill ${kill}: the interrupted call was made ${calls} times under its key`)
    if (done.steps.some((step) => step.attempt !== 1)) problems.push(`kill ${kill}: a step took a second attempt`)
    console.log(
      `   kill ${String(kill).padStart(2)}: node ${victim.index} (started on node ${starter.index}); the step ran ` +
        `again ${seconds(recoveries.at(-1)!)} after the kill; the run ${done.status}`
    )
    yield* Effect.promise(() => victim.restart())
    yield* Effect.sleep(REBALANCE)
  }
  const keys = new Map<string, number>()
  for (const call of tool.calls) keys.set(call.key, (keys.get(call.key) ?? 0) + 1)
  const repeated = [...keys.values()].filter((count) => count > 1).length
  console.log(
    `   recovery (kill -9 -> the interrupted step's next call) over ${KILLS} kills: p50 ${
      seconds(percentile(recoveries, 50))
    }, p99 ${seconds(percentile(recoveries, 99))}, max ${seconds(Math.max(...recoveries))}`
  )
  console.log(
    `   ${tool.calls.length} tool calls under ${keys.size} keys; ${repeated} keys called twice (the ${KILLS} ` +
      `interrupted ones), none more; ${problems.length === 0 ? "every run succeeded: PASS" : problems.join("; ")}`
  )
  console.log(`   part 2 took ${((performance.now() - startedAt) / 60_000).toFixed(1)} min`)
})

const main = Effect.gen(function*() {
  const version = yield* Effect.scoped(
    Effect.flatMap(
      emptyDatabase,
      ({ url }) =>
        Effect.flatMap(
          connectedClient(url),
          (pg) => Effect.promise(() => pg.query<{ server_version: string }>(`SHOW server_version`))
        )
    )
  )
  console.log(
    `workflow benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ` +
      `PostgreSQL ${version.rows[0]?.server_version}; load average ${loadAverage()}; shard timing: ${
        SHARD_SETTINGS.map((name) => `${name}=${process.env[name] ?? "(node default)"}`).join(", ")
      }`
  )
  yield* Effect.scoped(throughputPart)
  if (KILLS > 0) {
    console.log(`\n2. recovery after kill -9 on three nodes (LocalCluster, the bundle), ${KILLS} kills`)
    yield* Effect.scoped(recoveryPart)
  }
  console.log(`\nload average at the end: ${loadAverage()}`)
})

runBench(main)
