/**
 * Three real nodes started by the launcher, one database, plain HTTP: 100
 * conversations take a steady stream of turns, each with an idempotency key,
 * from clients that retry on another node when one fails. One node is killed
 * with SIGKILL mid-stream. Afterwards every acknowledged turn is in its
 * session's transcript exactly once and in order, none is missing, every turn
 * was written by the owner of the session at the time (the fencing epochs
 * only ever grow along a transcript, one runner per epoch), and the time the
 * dead node's conversations took to answer again is printed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  type Acknowledged,
  echoAssistant,
  readSession,
  sendUntilAnswered,
  signUpAt,
  startSession
} from "../../support/Conversations.js"
import { localCluster } from "../../support/LocalCluster.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"

const SESSIONS = 100
const TURNS = 8
const KILL_AFTER_TURN = 3

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

describe("a three-node cluster", () => {
  it.scopedLive("loses and repeats no turn when a node is killed mid-stream", () =>
    Effect.gen(function*() {
      const { url: databaseUrl } = yield* freshDatabase
      const cluster = yield* localCluster({ nodes: 3, databaseUrl })
      const pg = yield* connectedClient(databaseUrl)

      const result = yield* Effect.promise(async () => {
        const [first] = cluster.nodes
        const token = await signUpAt(first!.url)
        const agentId = await echoAssistant(first!.url, token)
        const urls = cluster.nodes.map((node) => node.url)
        const sessions = await Promise.all(
          Array.from({ length: SESSIONS }, (_, i) => startSession(urls[i % urls.length]!, token, agentId))
        )
        let live: ReadonlyArray<string> = urls
        const acknowledged = new Map<string, Array<Acknowledged>>(sessions.map((id) => [id, []]))
        let killedAt = 0
        let victimSessions = new Set<string>()
        // The node that owns the most conversations at that moment (a node that started last under load may own
        // none yet).
        const kill = async () => {
          const owners = await pg.query<{ id: string; owner_runner: string }>(
            `SELECT id, owner_runner FROM runtime_sessions`
          )
          const owned = (node: (typeof cluster.nodes)[number]) =>
            owners.rows.filter((row) => row.owner_runner === `127.0.0.1:${node.runnerPort}`).map((row) => row.id)
          const victim = cluster.nodes.reduce((most, node) => owned(node).length > owned(most).length ? node : most)
          victimSessions = new Set(owned(victim))
          killedAt = Date.now()
          victim.kill("SIGKILL")
          live = urls.filter((url) => url !== victim.url)
        }

        // Each client talks to its own node first (as a sticky load balancer would) and moves on when it fails.
        // Every conversation waits for the kill before its turn KILL_AFTER_TURN + 2, so each of the victim's
        // conversations has turns after it to measure recovery by (however far ahead of the first client it ran).
        const deadline = Date.now() + 120_000
        let startKill: () => void = () => {}
        const killing = new Promise<void>((resolve, reject) => {
          startKill = () => void kill().then(resolve, reject)
        })
        await Promise.all(sessions.map(async (sessionId, i) => {
          for (let turn = 1; turn <= TURNS; turn++) {
            if (turn === KILL_AFTER_TURN + 1 && i === 0) startKill()
            if (turn > KILL_AFTER_TURN + 1) await killing
            const ack = await sendUntilAnswered(
              () => (turn <= KILL_AFTER_TURN ? urls : live),
              token,
              sessionId,
              `${sessionId}-${turn}`,
              `message ${turn}`,
              deadline,
              i
            )
            acknowledged.get(sessionId)!.push(ack)
          }
        }))
        await killing

        // Recovery: for each conversation the dead node owned, from the kill to its first answer after it.
        const recovery = [...victimSessions].map((id) => {
          const after = acknowledged.get(id)!.find((ack) => ack.at >= killedAt)
          return after === undefined ? Infinity : after.at - killedAt
        })

        const transcripts = await Promise.all(sessions.map((id, i) => readSession(live[i % live.length]!, token, id)))
        const turns = await pg.query<{ session_id: string; turn: number; epoch: number; runner: string | null }>(
          `SELECT session_id, turn, epoch, runner FROM runtime_turns WHERE turn > 0 ORDER BY session_id, turn`
        )
        const owners = await pg.query<{ session_id: string; epoch: number; runner: string }>(
          `SELECT session_id, epoch, runner FROM runtime_session_owners`
        )
        return { sessions, acknowledged, transcripts, turns: turns.rows, owners: owners.rows, recovery, victimSessions }
      })

      // Every acknowledged turn is in its transcript exactly once, in the order sent, and nothing else is.
      result.sessions.forEach((sessionId, i) => {
        const acks = result.acknowledged.get(sessionId)!
        expect(acks.map((ack) => ack.turn)).toEqual(Array.from({ length: TURNS }, (_, t) => t + 1))
        const users = result.transcripts[i].transcript.filter((entry: any) => entry.role === "user")
        expect(users.map((entry: any) => entry.idempotencyKey)).toEqual(acks.map((ack) => ack.key))
        expect(users.map((entry: any) => entry.input.text)).toEqual(acks.map((ack) => ack.text))
        const echoes = result.transcripts[i].transcript
          .filter((entry: any) => entry.role === "bot" && entry.turn > 0)
          .map((entry: any) => entry.messages[0].text)
        expect(echoes).toEqual(acks.map((ack) => `You said: ${ack.text}`))
        expect(result.transcripts[i].session.turn).toBe(TURNS)
      })

      // Fencing: along each transcript the owner epoch never goes back, and each epoch belongs to one runner,
      // the one recorded when it was claimed.
      const ownerOf = new Map(result.owners.map((row) => [`${row.session_id}/${row.epoch}`, row.runner]))
      const bySession = new Map<string, Array<(typeof result.turns)[number]>>()
      for (const row of result.turns) bySession.set(row.session_id, [...(bySession.get(row.session_id) ?? []), row])
      expect(bySession.size).toBe(SESSIONS)
      for (const rows of bySession.values()) {
        expect(rows.map((row) => row.turn)).toEqual(Array.from({ length: TURNS }, (_, t) => t + 1))
        rows.forEach((row, k) => {
          if (k > 0) expect(row.epoch).toBeGreaterThanOrEqual(rows[k - 1]!.epoch)
          expect(ownerOf.get(`${row.session_id}/${row.epoch}`)).toBe(row.runner)
        })
      }
      // The dead node's conversations moved: their later turns were written under a newer epoch elsewhere.
      expect(result.victimSessions.size).toBeGreaterThan(0)

      const p50 = percentile(result.recovery, 50)
      const p99 = percentile(result.recovery, 99)
      console.log(
        `failover: ${result.victimSessions.size} conversations on the killed node answered again after ` +
          `p50 ${p50} ms, p99 ${p99} ms, max ${Math.max(...result.recovery)} ms`
      )
      expect(Number.isFinite(p99)).toBe(true)
    }), 240_000)
})
