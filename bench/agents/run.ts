/**
 * What an AI agent's turn costs, measured on this machine in one run, next to
 * the Assistant turn of the same run:
 *
 * 1. Overhead at 1 connection: playground turns of an agent without tools on
 *    the offline model (which answers at once, in well under a millisecond),
 *    one at a time over HTTP, continuing 20 conversations round-robin. The
 *    figure includes the offline model's own time, so it is an upper bound
 *    of the agent runtime's overhead. Targets: p50 <= 5 ms, p99 <= 20 ms.
 *    Beside it, by the same client on the same node, what the node costs at
 *    all: `/health/live`, an authenticated read of the agent, the echo
 *    Assistant's turn; each with the node's CPU per request (/proc), so a
 *    reader sees which part of a turn is the runtime's floor.
 * 2. Turns/s at 50 connections (autocannon), agent playground turns and
 *    echo-Assistant turns (`bench/turns/Load.ts`) on the same node.
 * 3. First token: a node whose model is a fake OpenAI server that waits
 *    200 ms before its first token; streamed playground turns, one at a time:
 *    from the fake writing its first token to the client reading the first
 *    `message.delta` (both clocks are this process's). Target: p50 <= 10 ms.
 *
 * One Parley node per part, started as the launcher starts it (the bundle),
 * PARLEY_LOG_LEVEL=Warning, PARLEY_MAX_TURNS_IN_FLIGHT=100 for part 2 (the
 * default bound of 24 would refuse turns at 50 connections: this compares
 * throughput); a fresh database per node, dropped at the end.
 *
 *   npm run bench:agents
 */
import autocannon from "autocannon"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import { localCluster } from "../../test/support/LocalCluster.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { type AgentTarget, agentTarget, fakeModelNode, firstDeltaGap, post } from "../support/Agents.js"
import { benchNodeEnv, loadAverage, parleyTarget, verdict } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { runBench } from "../support/Run.js"
import { load, percentile, type Target } from "../turns/Load.js"

const CONVERSATIONS = 20
const SEQUENTIAL_TURNS = 400
const WARM_UP_TURNS = 50
const LOAD_SECONDS = 10
const FIRST_TOKEN_TURNS = 30
const FIRST_TOKEN_DELAY_MS = 200

/** `count` requests one at a time, the `n`th sent by `send(n)`: each one's time in ms. */
const sequential = (count: number, send: (n: number) => Promise<unknown>) =>
  Effect.promise(async () => {
    const times: Array<number> = []
    for (let n = 0; n < count; n++) {
      const started = performance.now()
      await send(n)
      times.push(performance.now() - started)
    }
    return times
  })

/** `sequential`, with the CPU the node `pid` spent per request meanwhile (ms). */
const measured = (pid: number, count: number, send: (n: number) => Promise<unknown>) =>
  Effect.suspend(() => {
    const before = cpuMillisOf(pid)
    return Effect.map(sequential(count, send), (times) => ({ times, cpu: (cpuMillisOf(pid) - before) / count }))
  })

/** An authenticated GET that must answer 200. */
const get = async (url: string, token: string) => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  await response.text()
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`)
}

/** The `n`th playground turn of a run, round-robin over the conversations. */
const sendTurn = (target: AgentTarget, n: number, run: string) =>
  post(`${target.url}/v1/ai-agents/${target.slug}/playground`, {
    message: `question ${n}`,
    conversationId: target.conversations[n % target.conversations.length]
  }, { authorization: `Bearer ${target.token}`, "idempotency-key": `${run}-${n}` })

/** `count` playground turns one at a time. */
const sequentialTurns = (target: AgentTarget, count: number, run: string) =>
  sequential(count, (n) => sendTurn(target, n, run))

/** The `n`th echo-Assistant turn of a run, round-robin over the sessions, by the same client. */
const sendAssistantTurn = (target: Target, n: number, run: string) =>
  post(`${target.urls[0]}/v1/runtime/sessions/${target.sessions[n % target.sessions.length]}/turns`, {
    text: `question ${n}`
  }, { authorization: `Bearer ${target.token}`, "idempotency-key": `${run}-${n}` })

/** `count` echo-Assistant turns one at a time. */
const sequentialAssistantTurns = (target: Target, count: number, run: string) =>
  sequential(count, (n) => sendAssistantTurn(target, n, run))

/** Playground turns under autocannon with `connections` connections for `seconds`. */
const agentLoad = (target: AgentTarget, connections: number, seconds: number) =>
  Effect.promise(() =>
    new Promise<{ ok: number; failed: number; latencies: Array<number> }>((resolve, reject) => {
      const run = Crypto.randomBytes(4).toString("hex")
      let next = 0
      let ok = 0
      const latencies: Array<number> = []
      const instance = autocannon({
        url: target.url,
        connections,
        duration: seconds,
        requests: [{
          setupRequest: (request) => {
            const n = next++
            return {
              ...request,
              method: "POST",
              path: `/v1/ai-agents/${target.slug}/playground`,
              headers: {
                authorization: `Bearer ${target.token}`,
                "content-type": "application/json",
                "idempotency-key": `load-${run}-${n}`
              },
              body: JSON.stringify({
                message: `load ${n}`,
                conversationId: target.conversations[n % target.conversations.length]
              })
            }
          }
        }]
      }, (error, result) => error ? reject(error) : resolve({ ok, failed: result.non2xx + result.errors, latencies }))
      instance.on("response", (_client, status, _bytes, millis) => {
        if (status >= 200 && status < 300) {
          ok++
          latencies.push(millis)
        }
      })
    })
  )

const ms = (value: number) => `${value.toFixed(1)} ms`

const offlinePart = Effect.gen(function*() {
  const { url: databaseUrl } = yield* emptyDatabase
  // The turns gate (24 by default) would refuse Assistant turns at 50 connections: this compares throughput.
  const cluster = yield* localCluster({
    nodes: 1,
    databaseUrl,
    env: { ...benchNodeEnv(), PARLEY_MAX_TURNS_IN_FLIGHT: "100" }
  })
  const { pid, url } = cluster.nodes[0]!
  const agent = yield* agentTarget(url, databaseUrl, CONVERSATIONS)
  yield* sequentialTurns(agent, WARM_UP_TURNS, "warm")
  const turns = yield* measured(pid, SEQUENTIAL_TURNS, (n) => sendTurn(agent, n, "seq"))
  const p50 = percentile(turns.times, 50)
  const p99 = percentile(turns.times, 99)
  console.log(
    `\n1. agent turn at 1 connection (offline model, no tools; ${SEQUENTIAL_TURNS} turns over ${CONVERSATIONS} ` +
      `conversations): p50 ${ms(p50)} ${verdict(p50 <= 5)} (<= 5 ms), p99 ${ms(p99)} ${
        verdict(p99 <= 20)
      } (<= 20 ms), max ${ms(Math.max(...turns.times))}`
  )
  // The same client and node: an echo Assistant's turn (the runtime's cheapest turn), an authenticated
  // read and the liveness probe: what a request costs here at all.
  const assistant = yield* parleyTarget([url], 200)
  yield* sequentialAssistantTurns(assistant, WARM_UP_TURNS, "warm")
  const echoes = yield* measured(pid, SEQUENTIAL_TURNS, (n) => sendAssistantTurn(assistant, n, "seq"))
  const read = yield* measured(pid, SEQUENTIAL_TURNS, () => get(`${url}/v1/ai-agents/${agent.slug}`, agent.token))
  const live = yield* measured(pid, SEQUENTIAL_TURNS, () => get(`${url}/health/live`, agent.token))
  console.log(`   the same client and node, ${SEQUENTIAL_TURNS} requests each, one at a time:`)
  for (
    const [what, { cpu, times }] of [
      ["GET /health/live", live],
      ["GET /v1/ai-agents/{slug}", read],
      ["echo-Assistant turn", echoes],
      ["agent playground turn", turns]
    ] as const
  ) {
    console.log(
      `     ${what.padEnd(26)} p50 ${ms(percentile(times, 50)).padStart(8)}, p99 ${
        ms(percentile(times, 99)).padStart(8)
      }, node CPU ${ms(cpu).padStart(8)} per request`
    )
  }
  console.log(`   agent / Assistant p50: ${(p50 / percentile(echoes.times, 50)).toFixed(2)}`)

  // Warm both, then measure them one after the other on the same node.
  yield* Effect.promise(() => load(assistant, 50, 3))
  yield* agentLoad(agent, 50, 3)
  const agents = yield* agentLoad(agent, 50, LOAD_SECONDS)
  const assistants = yield* Effect.promise(() => load(assistant, 50, LOAD_SECONDS))
  const rate = (ok: number) => (ok / LOAD_SECONDS).toFixed(0)
  console.log(`2. at 50 connections for ${LOAD_SECONDS} s each, one node:`)
  console.log(
    `   agent playground turns:   ${rate(agents.ok)} turns/s, p50 ${ms(percentile(agents.latencies, 50))}, p99 ${
      ms(percentile(agents.latencies, 99))
    }, ${agents.failed} failed`
  )
  console.log(
    `   Assistant turns (echo):   ${rate(assistants.ok)} turns/s, p50 ${
      ms(percentile(assistants.latencies, 50))
    }, p99 ${ms(percentile(assistants.latencies, 99))}, ${assistants.failed} failed`
  )
  console.log(`   agent / Assistant: ${(agents.ok / Math.max(assistants.ok, 1)).toFixed(2)}`)
})

/** The time from the fake's first token to the first `message.delta` read by the client, per turn. */
const firstTokenPart = Effect.gen(function*() {
  const { databaseUrl, fake, url } = yield* fakeModelNode(
    "Your order A1 left the warehouse this morning.",
    FIRST_TOKEN_DELAY_MS
  )
  const agent = yield* agentTarget(url, databaseUrl, 5)
  const gaps = yield* Effect.promise(async () => {
    const out: Array<number> = []
    for (let n = 0; n < FIRST_TOKEN_TURNS; n++) {
      out.push(await firstDeltaGap(fake, agent, `first-${n}`, `where is A${n}?`, agent.conversations[n % 5]!))
    }
    return out
  })
  const p50 = percentile(gaps, 50)
  console.log(
    `3. first token (the fake waits ${FIRST_TOKEN_DELAY_MS} ms, then streams word by word; ${FIRST_TOKEN_TURNS} ` +
      `streamed turns): provider's first token -> client's first message.delta p50 ${ms(p50)} ${
        verdict(p50 <= 10)
      } (<= 10 ms), p90 ${ms(percentile(gaps, 90))}, max ${ms(Math.max(...gaps))}`
  )
})

const main = Effect.gen(function*() {
  console.log(
    `agent benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}; ` +
      `load average ${loadAverage()}`
  )
  yield* Effect.scoped(offlinePart)
  yield* Effect.scoped(firstTokenPart)
  console.log(`\nload average at the end: ${loadAverage()}`)
})

runBench(main)
