/**
 * How long a node's conversations go unanswered when it dies, measured on
 * this machine in one run: three nodes (separate processes, the production
 * composition) share a fresh database; 60 conversations with an echo
 * Assistant each take a steady stream of turns from a client that retries
 * with the same idempotency key on another node when one fails
 * (`sendUntilAnswered`). Ten times, a node is killed with SIGKILL; for each
 * conversation it owned just before (`runtime_sessions.owner_runner`), the
 * time from the kill to its first acknowledged turn after it is its recovery
 * time. The node is then restarted, and the shards given time to rebalance.
 *
 * At the end, every acknowledged turn must be in its conversation's transcript
 * exactly once and in order, and each stored turn written by the owner of the
 * session at the time (fencing), as in test/integration/cluster/Failover.test.ts.
 *
 * With `--freeze`, the node is frozen (SIGSTOP) for 15 s instead of killed,
 * then woken (SIGCONT): a node that stops without dying keeps its database
 * connections, and its conversations must still move once its shard locks
 * expire; the woken node exits (it stood still longer than its locks last) and
 * is started again, and must write nothing under its old ownership. A turn
 * whose request was already on its way to the node when it froze waits there
 * for the client's time-out (10 s) before it is sent elsewhere: such turns are
 * counted apart, with the recoveries of the others.
 *
 * The shard timing settings come from the environment (the nodes' defaults
 * otherwise) and are passed to the nodes:
 *
 *   npm run bench:failover
 *   npm run bench:failover -- --freeze
 *   PARLEY_SHARD_LOCK_EXPIRATION="3 seconds" npm run bench:failover
 */
import { Duration, Effect } from "effect"
import * as Os from "node:os"
import type Pg from "pg"
import { PAUSED_EXIT_CODE } from "../../src/actors/PauseGuard.js"
import { exactlyOnce, fenced } from "../../test/support/Chaos.js"
import {
  type Acknowledged,
  echoAssistant,
  sendUntilAnswered,
  signUpAt,
  startSession
} from "../../test/support/Conversations.js"
import { type ClusterNode, localCluster } from "../../test/support/LocalCluster.js"
import { connectedClient, emptyDatabase } from "../../test/support/TestDatabase.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"

const NODES = 3
const SESSIONS = 60
const KILLS = 10
/** A conversation's client waits this long after each answer before its next turn. */
const PAUSE_MS = 500
/** After a restart, before the next kill: the restarted node takes its share of the shards back. */
const REBALANCE = Duration.seconds(4)
/** A conversation not answered again within this long after a kill counts as not recovered. */
const RECOVERY_TIMEOUT_MS = 60_000
const TARGET_P99_MS = 5_000
/** `--freeze`: SIGSTOP the node for this long, then SIGCONT, instead of SIGKILL and a restart. */
const FREEZE = process.argv.includes("--freeze")
const FREEZE_MS = 15_000

/** The settings that decide how soon a dead node's shards move, with the nodes' defaults. */
const SHARD_TIMING: Record<string, string> = Object.fromEntries(
  ([
    ["PARLEY_SHARD_LOCK_EXPIRATION", "4 seconds"],
    ["PARLEY_SHARD_LOCK_REFRESH_INTERVAL", "1 second"],
    ["PARLEY_SHARD_REFRESH_INTERVAL", "500 millis"],
    ["PARLEY_RUNNER_HEALTH_CHECK_INTERVAL", "1 second"]
  ] as const).map(([name, fallback]) => [name, process.env[name] ?? fallback])
)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const seconds = (ms: number) => Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : "never"
const spread = (values: ReadonlyArray<number>) =>
  `p50 ${seconds(percentile(values, 50))}, p99 ${seconds(percentile(values, 99))}, max ${seconds(Math.max(...values))}`

/** The conversations and their clients: each sends turns until `stop()`, to the nodes `live()` lists. */
const conversations = (urls: ReadonlyArray<string>, live: () => ReadonlyArray<string>) =>
  Effect.promise(async () => {
    const token = await signUpAt(urls[0]!)
    const agentId = await echoAssistant(urls[0]!, token)
    const sessions = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) => startSession(urls[i % urls.length]!, token, agentId))
    )
    const acknowledged = new Map<string, Array<Acknowledged>>(sessions.map((id) => [id, []]))
    const failures: Array<string> = []
    let stopping = false
    const clients = sessions.map(async (sessionId, i) => {
      const acks = acknowledged.get(sessionId)!
      while (!stopping) {
        const turn = acks.length + 1
        try {
          const deadline = Date.now() + RECOVERY_TIMEOUT_MS
          acks.push(
            await sendUntilAnswered(live, token, sessionId, `${sessionId}-${turn}`, `message ${turn}`, deadline, i)
          )
        } catch (error) {
          failures.push(String(error))
          return
        }
        await sleep(PAUSE_MS)
      }
    })
    const stop = () => {
      stopping = true
      return Promise.all(clients)
    }
    return { token, sessions, acknowledged, failures, stop }
  })

/**
 * Kill `victim` with SIGKILL (or freeze it with SIGSTOP); when each
 * conversation it owned was answered again, in ms after the kill or freeze.
 */
const killAndMeasure = (
  victim: ClusterNode,
  pg: Pg.Client,
  acknowledged: ReadonlyMap<string, ReadonlyArray<Acknowledged>>,
  down: (url: string) => void
) =>
  Effect.promise(async () => {
    const owners = await pg.query<{ id: string }>(
      `SELECT id FROM runtime_sessions WHERE owner_runner = $1`,
      [`127.0.0.1:${victim.runnerPort}`]
    )
    const owned = owners.rows.map((row) => row.id)
    const killedAt = Date.now()
    victim.kill(FREEZE ? "SIGSTOP" : "SIGKILL")
    down(victim.url)
    const limit = FREEZE ? FREEZE_MS : RECOVERY_TIMEOUT_MS
    const recovering = (id: string) => acknowledged.get(id)!.find((ack) => ack.at >= killedAt)
    while (owned.some((id) => recovering(id) === undefined) && Date.now() - killedAt < limit) {
      await sleep(50)
    }
    const recovery = owned.map((id) => (recovering(id)?.at ?? Infinity) - killedAt)
    // A request already sent to a frozen node waits there for the client's time-out before it is sent elsewhere
    // (one sent to a killed node fails at once).
    const held = owned.map((id) => {
      const ack = recovering(id)
      return FREEZE && ack !== undefined && ack.attempts > 1 && ack.firstSent.at < killedAt &&
        ack.firstSent.url === victim.url
    })
    return { from: killedAt, recovery, held }
  })

/**
 * Wake a frozen node after `FREEZE_MS` and wait until it is ready again: it
 * exits on waking (it stood still longer than its locks last) and LocalCluster
 * starts it again, as a supervisor would. Whether the frozen process exited so.
 */
const wake = (victim: ClusterNode, frozenAt: number) =>
  Effect.promise(async () => {
    await sleep(Math.max(0, frozenAt + FREEZE_MS - Date.now()))
    const exited = victim.exited
    victim.kill("SIGCONT")
    const exit = await Promise.race([exited, sleep(10_000).then(() => undefined)])
    for (let i = 0; i < 150; i++) {
      if (await fetch(`${victim.url}/health/ready`).then((r) => r.ok, () => false)) break
      await sleep(200)
    }
    return exit?.code === PAUSED_EXIT_CODE
  })

const main = Effect.gen(function*() {
  const started = performance.now()
  const { name, url } = yield* emptyDatabase
  const pg = yield* connectedClient(url)
  const version = yield* Effect.promise(() => pg.query<{ server_version: string }>("SHOW server_version"))
  console.log(
    `failover benchmark${FREEZE ? " (frozen nodes)" : ""}: ${Os.cpus().length} CPUs (${
      Os.cpus()[0]?.model ?? "?"
    }), Node ${process.version}, ` +
      `PostgreSQL ${version.rows[0]!.server_version} at ${new URL(url).host}; load average ${
        Os.loadavg()[0]!.toFixed(2)
      }`
  )
  console.log(
    `  ${NODES} nodes from the sources (tsx) on loopback, PARLEY_LOG_LEVEL=Warning; fresh database ${name}, ` +
      `dropped at the end`
  )
  console.log(`  shard timing: ${Object.entries(SHARD_TIMING).map(([k, v]) => `${k}=${v}`).join(", ")}`)
  console.log(
    `  ${SESSIONS} conversations (echo Assistant), each a turn at a time with ${PAUSE_MS} ms between an answer and ` +
      `the next turn; a client sends to its own node first and, on a refused connection, a time-out (10 s) or a ` +
      `5xx, again with the same key to the next live node, every 100 ms`
  )
  console.log(
    FREEZE
      ? `  ${KILLS} times: SIGSTOP one node (in turn) for ${FREEZE_MS / 1000} s, recovery = from the freeze to a ` +
        `conversation's first acknowledged turn after it (before the node wakes, or never), for each conversation ` +
        `the node owned just before; SIGCONT; ${Duration.toSeconds(REBALANCE)} s for the shards to rebalance\n`
      : `  ${KILLS} times: SIGKILL one node (in turn), recovery = from the kill to a conversation's first ` +
        `acknowledged turn after it, for each conversation the node owned just before; restart it; ${
          Duration.toSeconds(REBALANCE)
        } s for the shards to rebalance\n`
  )

  const cluster = yield* localCluster({
    nodes: NODES,
    databaseUrl: url,
    env: { PARLEY_LOG_LEVEL: "Warning", ...SHARD_TIMING }
  })
  const urls = cluster.nodes.map((node) => node.url)
  const live = new Set(urls)
  const liveUrls = () => urls.filter((u) => live.has(u))
  const chat = yield* conversations(urls, liveUrls)
  yield* Effect.sleep(REBALANCE)

  const all: Array<number> = []
  /** The recoveries of conversations whose turn was not held by the stopped node until the client's time-out. */
  const notHeld: Array<number> = []
  const frozen: Array<{ readonly runner: string; readonly from: number }> = []
  let exitedOnWaking = 0
  for (let k = 0; k < KILLS; k++) {
    const victim = cluster.nodes[k % NODES]!
    const { from, held, recovery } = yield* killAndMeasure(victim, pg, chat.acknowledged, (u) => live.delete(u))
    all.push(...recovery)
    notHeld.push(...recovery.filter((_, i) => !held[i]))
    const heldCount = held.filter(Boolean).length
    const restartedAt = performance.now()
    if (FREEZE) {
      frozen.push({ runner: `127.0.0.1:${victim.runnerPort}`, from })
      if (yield* wake(victim, from)) exitedOnWaking++
    } else {
      yield* Effect.promise(() => victim.restart())
    }
    live.add(victim.url)
    console.log(
      `kill ${String(k + 1).padStart(2)}: node ${victim.index}, ${String(recovery.length).padStart(2)} conversations ` +
        `affected, recovered ${recovery.length === 0 ? "-" : spread(recovery)}${
          heldCount === 0 ? "" : ` (${heldCount} sent to it before, answered after the client's time-out)`
        }; back up in ${seconds(performance.now() - restartedAt)}`
    )
    yield* Effect.sleep(REBALANCE)
  }
  yield* Effect.promise(chat.stop)

  const acknowledged = [...chat.acknowledged.values()].reduce((sum, acks) => sum + acks.length, 0)
  const retried = [...chat.acknowledged.values()].flat().filter((ack) => ack.attempts > 1).length
  const p99 = percentile(all, 99)
  console.log(`\nover all ${KILLS} kills: ${all.length} conversations affected, recovered ${spread(all)}`)
  if (notHeld.length < all.length) {
    console.log(
      `  of which ${all.length - notHeld.length} had their turn on its way to the node when it stopped: the ` +
        `client's 10 s time-out, then answered elsewhere; the other ${notHeld.length}: ${spread(notHeld)}`
    )
  }
  console.log(`target: p99 <= ${seconds(TARGET_P99_MS)}: ${seconds(p99)} ${p99 <= TARGET_P99_MS ? "PASS" : "FAIL"}`)

  const problems = [
    ...chat.failures,
    ...(yield* Effect.promise(() => exactlyOnce(liveUrls(), chat.token, chat.acknowledged)))
  ]
  const fencing = yield* Effect.promise(() => fenced(pg))
  // A woken node writes nothing under the ownership it had before it froze (half a second for a commit in flight).
  const stale = fencing.turns.filter((row) =>
    frozen.some(({ from, runner }) =>
      row.runner === runner && row.created_at.getTime() > from + 500 &&
      (fencing.owners.get(`${row.session_id}/${row.epoch}`)?.activated_at.getTime() ?? 0) < from
    )
  )
  console.log(
    `\nexactly-once: ${acknowledged} acknowledged turns (${retried} needed a retry) in ${SESSIONS} conversations: ` +
      (problems.length === 0
        ? "PASS (each in its transcript once, in order, with its echo; nothing else)"
        : `FAIL\n${problems.slice(0, 10).map((p) => `  ${p}`).join("\n")}`)
  )
  console.log(
    `fencing: ${fencing.turns.length} stored turns: ` +
      (fencing.problems.length === 0
        ? "PASS (epochs never go back along a transcript; each turn written by its epoch's owner)"
        : `FAIL\n${fencing.problems.slice(0, 10).map((p) => `  ${p}`).join("\n")}`)
  )
  if (FREEZE) {
    console.log(
      `woken nodes: ${
        stale.length === 0
          ? "PASS (nothing written under the ownership a node had before it froze)"
          : `FAIL: ${stale.length} turns written under a pre-freeze epoch after waking`
      }; ${exitedOnWaking} of ${KILLS} exited on waking (status ${PAUSED_EXIT_CODE}) and were started afresh`
    )
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`)
})

runBench(main)
