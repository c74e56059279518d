/**
 * Clients that give up and retry, as the docs tell them to: each turn is sent
 * with its Idempotency-Key, abandoned after a random 0–50 ms (the client's
 * time-out or a closed connection) a few times, and then sent again with the
 * same key and body until it is answered. On one node and across three, every
 * key must be answered with its turn (no attempt that completes is refused;
 * a `503 Overloaded`, "nothing was done", is retried after its `Retry-After`
 * as the docs say, for thirty clients that send without a pause keep a node
 * at its admission bound), every committed turn must be readable by its key,
 * and no turn may be stored twice or out of order. The cluster must never
 * keep an interruption as a turn's answer.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { attemptTurn, random } from "../../support/Chaos.js"
import { echoAssistant, readSession, signUpAt, startSession } from "../../support/Conversations.js"
import { localCluster } from "../../support/LocalCluster.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"

interface Outcome {
  readonly key: string
  readonly text: string
  readonly turn: number
  readonly aborted: number
  readonly refusals: ReadonlyArray<string>
  /** Attempts answered `503 Overloaded`: "nothing was done, retry later", which the client does. */
  readonly overloaded: number
}

const SESSIONS = 30
const TURNS = 5
/** Abandoned attempts per turn before the client waits for an answer (three times at most). */
const ABANDONED = 3
/** `503 Overloaded` answers a client retries, per turn, before it counts one as a refusal. */
const OVERLOADED_RETRIES = 5

const run = (nodes: number, seed: number) =>
  Effect.gen(function*() {
    const { url: databaseUrl } = yield* freshDatabase
    const cluster = yield* localCluster({ nodes, databaseUrl })
    const pg = yield* connectedClient(databaseUrl)
    const urls = cluster.nodes.map((node) => node.url)

    const result = yield* Effect.promise(async () => {
      const token = await signUpAt(urls[0]!)
      const agentId = await echoAssistant(urls[0]!, token)
      const sessions = await Promise.all(
        Array.from({ length: SESSIONS }, (_, i) => startSession(urls[i % urls.length]!, token, agentId))
      )
      const outcomes = await Promise.all(sessions.map(async (sessionId, s) => {
        const next = random(seed * 1000 + s)
        const done: Array<Outcome> = []
        for (let turn = 1; turn <= TURNS; turn++) {
          const key = `${sessionId}-${turn}`
          const text = `message ${turn}`
          const refusals: Array<string> = []
          let aborted = 0
          let overloaded = 0
          let answered: number | undefined
          // Give up a few times after 0–50 ms, each time on whichever node the balancer picks, then wait.
          for (let n = 0; answered === undefined && n < ABANDONED + 3 + overloaded; n++) {
            const url = urls[Math.floor(next() * urls.length)]!
            const abandon = n < ABANDONED ? Math.floor(next() * 51) : undefined
            const result = await attemptTurn(url, token, sessionId, key, text, { abandonAfterMs: abandon })
            if (result.kind === "abandoned") aborted++
            else if (result.kind === "failed") refusals.push(result.error)
            else if (result.status === 200) answered = result.body.turn
            else if (result.status === 503 && result.body?._tag === "Overloaded" && overloaded < OVERLOADED_RETRIES) {
              // Thirty clients with no pause between turns keep a node at its admission bound: as told, wait and retry.
              overloaded++
              await new Promise((resolve) => setTimeout(resolve, result.body.retryAfterSeconds * 1000))
            } else refusals.push(`${result.status} ${JSON.stringify(result.body)}`)
          }
          if (answered === undefined) throw new Error(`turn ${key} was never answered: ${refusals.join(" | ")}`)
          done.push({ key, text, turn: answered, aborted, refusals, overloaded })
        }
        return done
      }))

      // Every committed turn answers its key, from any node, with the turn it was committed as.
      const stored = await pg.query<{ session_id: string; turn: number; idempotency_key: string }>(
        `SELECT session_id, turn, idempotency_key FROM runtime_turns WHERE turn > 0 ORDER BY session_id, turn`
      )
      // Ten clients at a time (all 150 at once would meet the node's admission bound, a 503 to retry).
      const repeats: Array<{ row: (typeof stored.rows)[number]; again: Awaited<ReturnType<typeof attemptTurn>> }> = []
      for (let from = 0; from < stored.rows.length; from += 10) {
        repeats.push(
          ...await Promise.all(
            stored.rows.slice(from, from + 10).map(async (row, k) => ({
              row,
              again: await attemptTurn(
                urls[(from + k) % urls.length]!,
                token,
                row.session_id,
                row.idempotency_key,
                `message ${row.idempotency_key.split("-").at(-1)}`
              )
            }))
          )
        )
      }
      const transcripts = await Promise.all(sessions.map((id, i) => readSession(urls[i % urls.length]!, token, id)))
      const interruptedReplies = await pg.query<{ count: string }>(
        `SELECT count(*) FROM cluster_replies WHERE payload::text LIKE '%Interrupt%'`
      )
      return { sessions, outcomes, stored: stored.rows, repeats, transcripts, interruptedReplies }
    })

    const all = result.outcomes.flat()
    const abandoned = all.reduce((sum, outcome) => sum + outcome.aborted, 0)
    console.log(
      `aborted clients (${nodes} node${nodes === 1 ? "" : "s"}, seed ${seed}): ${all.length} turns, ` +
        `${abandoned} abandoned attempts, ${
          all.filter((o) => o.refusals.length > 0).length
        } turns refused at least once, ${
          all.reduce((sum, outcome) => sum + outcome.overloaded, 0)
        } attempts answered Overloaded and retried`
    )
    // No client that retried its key was ever refused (an Overloaded answer, retried as told, is no refusal).
    expect(all.flatMap((outcome) => outcome.refusals.map((refusal) => `${outcome.key}: ${refusal}`))).toEqual([])
    expect(abandoned).toBeGreaterThan(SESSIONS)

    result.sessions.forEach((_, i) => {
      const acks = result.outcomes[i]!
      // Each key answered with its own turn, in order: the turn numbers are 1..TURNS.
      expect(acks.map((ack) => ack.turn)).toEqual(Array.from({ length: TURNS }, (_, t) => t + 1))
      // The transcript holds each key once, in the order sent, and nothing else.
      const users = result.transcripts[i].transcript.filter((entry: any) => entry.role === "user")
      expect(users.map((entry: any) => entry.idempotencyKey)).toEqual(acks.map((ack) => ack.key))
      expect(users.map((entry: any) => entry.input.text)).toEqual(acks.map((ack) => ack.text))
      expect(result.transcripts[i].session.turn).toBe(TURNS)
    })
    expect(result.stored.length).toBe(SESSIONS * TURNS)
    for (const { again, row } of result.repeats) {
      expect(again.kind === "answered" ? [again.status, again.body.turn] : again).toEqual([200, row.turn])
    }
    // The cluster kept no interruption as any message's answer.
    expect(Number(result.interruptedReplies.rows[0]!.count)).toBe(0)
  })

describe("clients that abandon a turn and retry it with the same key", () => {
  it.scopedLive("are always answered, on one node", () => run(1, 1), 240_000)
  it.scopedLive("are always answered, across three nodes", () => run(3, 3), 300_000)
})
