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
 * session at the time (fencing), as in test/cluster/Failover.test.ts.
 *
 * The shard timing settings come from the environment (the nodes' defaults
 * otherwise) and are passed to the nodes:
 *
 *   npm run bench:failover
 *   PARLEY_SHARD_LOCK_EXPIRATION="3 seconds" npm run bench:failover
 */
import { Duration, Effect } from "effect"
import * as Os from "node:os"
import type Pg from "pg"
import {
  type Acknowledged,
  echoAssistant,
  readSession,
  sendUntilAnswered,
  signUpAt,
  startSession
} from "../../test/support/Conversations.js"
import { type ClusterNode, localCluster } from "../../test/support/LocalCluster.js"
import { connectedClient, emptyDatabase } from "../../test/support/TestDatabase.js"
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

/** Kill `victim` with SIGKILL; when each conversation it owned was answered again, in ms after the kill. */
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
    victim.kill("SIGKILL")
    down(victim.url)
    const recoveredAt = (id: string) => acknowledged.get(id)!.find((ack) => ack.at >= killedAt)?.at
    while (owned.some((id) => recoveredAt(id) === undefined) && Date.now() - killedAt < RECOVERY_TIMEOUT_MS) {
      await sleep(50)
    }
    return owned.map((id) => (recoveredAt(id) ?? Infinity) - killedAt)
  })

/** Every acknowledged turn in its transcript once and in order, and nothing else; problems found, if any. */
const exactlyOnce = (
  urls: ReadonlyArray<string>,
  token: string,
  acknowledged: ReadonlyMap<string, ReadonlyArray<Acknowledged>>
) =>
  Effect.promise(async () => {
    const problems: Array<string> = []
    await Promise.all([...acknowledged].map(async ([sessionId, acks], i) => {
      const { session, transcript } = await readSession(urls[i % urls.length]!, token, sessionId)
      const users = transcript.filter((entry: any) => entry.role === "user")
      const echoes = transcript
        .filter((entry: any) => entry.role === "bot" && entry.turn > 0)
        .map((entry: any) => entry.messages[0].text)
      const same = (a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>) =>
        a.length === b.length && a.every((x, k) => x === b[k])
      if (!same(acks.map((ack) => ack.turn), acks.map((_, k) => k + 1))) {
        problems.push(`${sessionId}: acknowledged turn numbers are not 1..${acks.length}`)
      }
      if (!same(users.map((entry: any) => entry.idempotencyKey), acks.map((ack) => ack.key))) {
        problems.push(`${sessionId}: the transcript's turns are not the acknowledged ones, once each, in order`)
      }
      if (!same(users.map((entry: any) => entry.input.text), acks.map((ack) => ack.text))) {
        problems.push(`${sessionId}: the transcript's texts are not the ones sent`)
      }
      if (!same(echoes, acks.map((ack) => `You said: ${ack.text}`))) {
        problems.push(`${sessionId}: the replies are not one echo per acknowledged turn`)
      }
      if (session.turn !== acks.length) {
        problems.push(`${sessionId}: at turn ${session.turn}, ${acks.length} acknowledged`)
      }
    }))
    return problems
  })

/** Along each transcript the owner epoch never goes back, and each turn was written by that epoch's owner. */
const fenced = (pg: Pg.Client) =>
  Effect.promise(async () => {
    const turns = await pg.query<{ session_id: string; turn: number; epoch: number; runner: string | null }>(
      `SELECT session_id, turn, epoch, runner FROM runtime_turns WHERE turn > 0 ORDER BY session_id, turn`
    )
    const owners = await pg.query<{ session_id: string; epoch: number; runner: string }>(
      `SELECT session_id, epoch, runner FROM runtime_session_owners`
    )
    const ownerOf = new Map(owners.rows.map((row) => [`${row.session_id}/${row.epoch}`, row.runner]))
    const problems: Array<string> = []
    turns.rows.forEach((row, k) => {
      const previous = turns.rows[k - 1]
      if (previous?.session_id === row.session_id && row.epoch < previous.epoch) {
        problems.push(`${row.session_id}: turn ${row.turn} was written under an older epoch than turn ${previous.turn}`)
      }
      if (ownerOf.get(`${row.session_id}/${row.epoch}`) !== row.runner) {
        problems.push(
          `${row.session_id}: turn ${row.turn} was written by ${row.runner}, not epoch ${row.epoch}'s owner`
        )
      }
    })
    return { turns: turns.rows.length, problems }
  })

const main = Effect.gen(function*() {
  const started = performance.now()
  const { name, url } = yield* emptyDatabase
  const pg = yield* connectedClient(url)
  const version = yield* Effect.promise(() => pg.query<{ server_version: string }>("SHOW server_version"))
  console.log(
    `failover benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}, ` +
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
    `  ${KILLS} times: SIGKILL one node (in turn), recovery = from the kill to a conversation's first acknowledged ` +
      `turn after it, for each conversation the node owned just before; restart it; ${
        Duration.toSeconds(REBALANCE)
      } s ` +
      `for the shards to rebalance\n`
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
  for (let k = 0; k < KILLS; k++) {
    const victim = cluster.nodes[k % NODES]!
    const recovery = yield* killAndMeasure(victim, pg, chat.acknowledged, (u) => live.delete(u))
    all.push(...recovery)
    const restartedAt = performance.now()
    yield* Effect.promise(() => victim.restart())
    live.add(victim.url)
    console.log(
      `kill ${String(k + 1).padStart(2)}: node ${victim.index}, ${String(recovery.length).padStart(2)} conversations ` +
        `affected, recovered ${recovery.length === 0 ? "-" : spread(recovery)}; back up in ${
          seconds(performance.now() - restartedAt)
        }`
    )
    yield* Effect.sleep(REBALANCE)
  }
  yield* Effect.promise(chat.stop)

  const acknowledged = [...chat.acknowledged.values()].reduce((sum, acks) => sum + acks.length, 0)
  const retried = [...chat.acknowledged.values()].flat().filter((ack) => ack.attempts > 1).length
  const p99 = percentile(all, 99)
  console.log(`\nover all ${KILLS} kills: ${all.length} conversations affected, recovered ${spread(all)}`)
  console.log(`target: p99 <= ${seconds(TARGET_P99_MS)}: ${seconds(p99)} ${p99 <= TARGET_P99_MS ? "PASS" : "FAIL"}`)

  const problems = [...chat.failures, ...(yield* exactlyOnce(liveUrls(), chat.token, chat.acknowledged))]
  const fencing = yield* fenced(pg)
  console.log(
    `\nexactly-once: ${acknowledged} acknowledged turns (${retried} needed a retry) in ${SESSIONS} conversations: ` +
      (problems.length === 0
        ? "PASS (each in its transcript once, in order, with its echo; nothing else)"
        : `FAIL\n${problems.slice(0, 10).map((p) => `  ${p}`).join("\n")}`)
  )
  console.log(
    `fencing: ${fencing.turns} stored turns: ` +
      (fencing.problems.length === 0
        ? "PASS (epochs never go back along a transcript; each turn written by its epoch's owner)"
        : `FAIL\n${fencing.problems.slice(0, 10).map((p) => `  ${p}`).join("\n")}`)
  )
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s in all)`)
})

Effect.runPromise(Effect.scoped(main)).then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  }
)
