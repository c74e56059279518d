/**
 * The chaos suite: three real nodes (processes, as the launcher starts them)
 * on one database reached through a TCP proxy the test can cut, and 30
 * conversations whose clients abandon a third of their turns' first attempts
 * after 0–50 ms and retry every turn with the same key until it is answered.
 * Under each fault (a node killed with SIGKILL, a node frozen with SIGSTOP for
 * 15 s, the database gone for 10 s) the suite checks that every turn was
 * answered, none lost, repeated or reordered (the transcripts hold exactly the
 * acknowledged turns, in order), every turn was written by its session's owner
 * at the time (fencing), and, for the frozen node, that its sessions answered
 * elsewhere before it woke, that it exited on waking (its locks may have
 * expired) and was started afresh, and that it wrote nothing under its old
 * ownership. The figures are printed; the bounds live in `bench/failover`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type Pg from "pg"
import { PAUSED_EXIT_CODE } from "../../../src/actors/PauseGuard.js"
import { type Chatter, chatter, exactlyOnce, fenced, percentile } from "../../support/Chaos.js"
import { echoAssistant, signUpAt, startSession } from "../../support/Conversations.js"
import { type LocalCluster, localCluster } from "../../support/LocalCluster.js"
import { startTcpProxy, type TcpProxy } from "../../support/TcpProxy.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"

const SESSIONS = 30
const FREEZE_MS = 15_000
const OUTAGE_MS = 10_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Stage {
  readonly cluster: LocalCluster
  readonly pg: Pg.Client
  readonly proxy: TcpProxy
  readonly chat: Chatter
  readonly token: string
  /** The nodes a balancer sends to now. */
  readonly live: Set<string>
}

/** The node that owns the most conversations now, and those conversations (by `owner_runner`). */
const busiest = async (pg: Pg.Client, cluster: LocalCluster) => {
  const rows = (await pg.query<{ id: string; owner_runner: string | null }>(
    `SELECT id, owner_runner FROM runtime_sessions`
  )).rows
  const ownedBy = (node: LocalCluster["nodes"][number]) =>
    rows.filter((row) => row.owner_runner === `127.0.0.1:${node.runnerPort}`).map((row) => row.id)
  const node = [...cluster.nodes].sort((a, b) => ownedBy(b).length - ownedBy(a).length)[0]!
  const owned = ownedBy(node)
  expect(owned.length).toBeGreaterThan(0)
  return { node, owned }
}

/** For each session, ms from `from` to its first acknowledged turn after it (waiting up to `limitMs`). */
const answeredAgain = async (chat: Chatter, sessions: ReadonlyArray<string>, from: number, limitMs: number) => {
  const after = (id: string) => chat.acknowledged.get(id)!.find((ack) => ack.at >= from)?.at
  while (sessions.some((id) => after(id) === undefined) && Date.now() - from < limitMs) await sleep(50)
  return sessions.map((id) => (after(id) ?? Infinity) - from)
}

const figures = (values: ReadonlyArray<number>) =>
  values.length === 0
    ? "none affected"
    : `p50 ${percentile(values, 50)} ms, p99 ${percentile(values, 99)} ms, max ${Math.max(...values)} ms`

/** Three nodes behind a cuttable database, 30 busy conversations; `fault` runs mid-stream; then every check. */
const chaos = (name: string, seed: number, fault: (stage: Stage) => Promise<string>) =>
  Effect.gen(function*() {
    const { url } = yield* freshDatabase
    const target = new URL(url)
    const proxy = yield* Effect.acquireRelease(
      Effect.promise(() => startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })),
      (proxy) => Effect.promise(() => proxy.close())
    )
    const proxied = new URL(url)
    proxied.hostname = "127.0.0.1"
    proxied.port = String(proxy.port)
    const cluster = yield* localCluster({
      nodes: 3,
      databaseUrl: proxied.toString(),
      env: { PARLEY_LOG_LEVEL: "Warning" }
    })
    const pg = yield* connectedClient(url)

    const report = yield* Effect.promise(async () => {
      const urls = cluster.nodes.map((node) => node.url)
      const token = await signUpAt(urls[0]!)
      const agentId = await echoAssistant(urls[0]!, token)
      const sessions = await Promise.all(
        Array.from({ length: SESSIONS }, (_, i) => startSession(urls[i % urls.length]!, token, agentId))
      )
      const live = new Set(urls)
      const chat = chatter({
        live: () => urls.filter((u) => live.has(u)),
        token,
        sessions,
        seed,
        abandonRate: 0.3,
        pauseMs: 150,
        timeoutMs: 8_000,
        turnDeadlineMs: 90_000
      })
      await sleep(3_000)
      const described = await fault({ cluster, pg, proxy, chat, token, live })
      await sleep(4_000)
      await chat.stop()
      const problems = await exactlyOnce(urls.filter((u) => live.has(u)), token, chat.acknowledged)
      const fencing = await fenced(pg)
      const turns = [...chat.acknowledged.values()].reduce((sum, acks) => sum + acks.length, 0)
      console.log(
        `chaos, ${name} (seed ${seed}): ${turns} turns acknowledged in ${SESSIONS} conversations, ` +
          `${chat.abandoned()} attempts abandoned by their clients, ${chat.refusals.length} answers to retry; ` +
          described
      )
      // What the nodes logged at Error (none, when all is well): the cause behind a check that fails, such as a 500.
      const errors = cluster.nodes.flatMap((node) =>
        node.output().split("\n").filter((line) => line.includes(`"logLevel":"ERROR"`)).slice(0, 3)
      )
      if (errors.length > 0) console.log(`chaos, ${name}: the nodes logged at Error:\n${errors.join("\n")}`)
      return { chat, problems, fencing, turns }
    })

    expect(report.chat.unanswered).toEqual([])
    expect(report.problems).toEqual([])
    expect(report.fencing.problems).toEqual([])
    expect(report.chat.abandoned()).toBeGreaterThan(0)
    expect(report.turns).toBeGreaterThan(SESSIONS * 3)
    // The only refusals a retrying client may see are "not now": a 503 to retry, or a node that did not answer.
    expect(report.chat.refusals.filter((refusal) => /^(4\d\d|500|501|502) /.test(refusal.what))).toEqual([])
    return report
  })

describe("chaos on three nodes", () => {
  it.scopedLive(
    "a node killed with SIGKILL: its conversations move, nothing lost or repeated",
    () =>
      chaos("kill -9", 11, async ({ chat, cluster, live, pg }) => {
        const { node: victim, owned } = await busiest(pg, cluster)
        const killedAt = Date.now()
        victim.kill("SIGKILL")
        live.delete(victim.url)
        const recovery = await answeredAgain(chat, owned, killedAt, 60_000)
        expect(recovery.every(Number.isFinite)).toBe(true)
        await victim.restart()
        live.add(victim.url)
        return `the killed node's ${owned.length} conversations answered again after ${figures(recovery)}`
      }),
    240_000
  )

  it.scopedLive(
    "a node frozen for 15 s: its conversations answer elsewhere before it wakes, and it writes nothing stale",
    () =>
      Effect.gen(function*() {
        let frozen = { runner: "", from: 0, to: 0 }
        const report = yield* chaos("SIGSTOP for 15 s", 12, async ({ chat, cluster, live, pg }) => {
          const { node: victim, owned } = await busiest(pg, cluster)
          const from = Date.now()
          victim.kill("SIGSTOP")
          live.delete(victim.url)
          const recovery = await answeredAgain(chat, owned, from, FREEZE_MS)
          await sleep(Math.max(0, from + FREEZE_MS - Date.now()))
          const frozenProcess = { pid: victim.pid, exited: victim.exited }
          victim.kill("SIGCONT")
          frozen = { runner: `127.0.0.1:${victim.runnerPort}`, from, to: Date.now() }
          // It stood still longer than its locks last: it exits on waking, to be started afresh (here by LocalCluster,
          // as by Kubernetes or Docker in production).
          const exit = await Promise.race([frozenProcess.exited, sleep(10_000).then(() => "still running")])
          expect(exit).toEqual({ code: PAUSED_EXIT_CODE, signal: null })
          expect(victim.output()).toContain("stood still for")
          // Back in the balancer once it says it is ready again.
          for (let i = 0; i < 150; i++) {
            const ready = await fetch(`${victim.url}/health/ready`).then((r) => r.ok, () => false)
            if (ready) break
            await sleep(200)
          }
          live.add(victim.url)
          // Every conversation the frozen node owned was answered by another node while it was frozen.
          expect(recovery.filter((ms) => !(ms < FREEZE_MS))).toEqual([])
          return `the frozen node's ${owned.length} conversations answered again after ${figures(recovery)}`
        })
        // Nothing the woken node wrote used the ownership it had before it froze (a turn committing at the instant
        // of the freeze is allowed half a second).
        const stale = report.fencing.turns.filter((row) =>
          row.runner === frozen.runner &&
          row.created_at.getTime() > frozen.from + 500 &&
          (report.fencing.owners.get(`${row.session_id}/${row.epoch}`)?.activated_at.getTime() ?? 0) < frozen.from
        )
        expect(stale).toEqual([])
      }),
    240_000
  )

  it.scopedLive(
    "the database gone for 10 s: turns wait and resume, nothing lost or repeated",
    () =>
      chaos("database cut for 10 s", 13, async ({ chat, proxy }) => {
        await proxy.cut()
        await sleep(OUTAGE_MS)
        await proxy.restore()
        const restoredAt = Date.now()
        const recovery = await answeredAgain(chat, [...chat.acknowledged.keys()], restoredAt, 60_000)
        expect(recovery.every(Number.isFinite)).toBe(true)
        return `after the database came back, every conversation answered again after ${figures(recovery)}`
      }),
    240_000
  )
})
