/**
 * A dead node's shards move at once, a frozen node's do not (`DeadRunners.ts`).
 * Three real nodes whose shard locks expire only after 60 s, so anything
 * that moves sooner was moved by the watch: a node frozen with SIGSTOP for
 * 3 s keeps its runner row healthy and its lock rows (its kernel still
 * accepts connections), and after SIGKILL of the node that owns the most
 * conversations, each of them answers again on the others long before its
 * locks could expire, its lock rows are gone and a survivor says why.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { echoAssistant, sendUntilAnswered, signUpAt, startSession } from "../../support/Conversations.js"
import { localCluster } from "../../support/LocalCluster.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"

const SESSIONS = 30
const LOCK_EXPIRATION_S = 60
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("dead runners", () => {
  it.scopedLive(
    "a killed node's conversations move before its locks expire; a frozen node keeps its own",
    () =>
      Effect.gen(function*() {
        const { url: databaseUrl } = yield* freshDatabase
        const cluster = yield* localCluster({
          nodes: 3,
          databaseUrl,
          env: { PARLEY_SHARD_LOCK_EXPIRATION: `${LOCK_EXPIRATION_S} seconds` }
        })
        const pg = yield* connectedClient(databaseUrl)
        const runnerOf = (node: (typeof cluster.nodes)[number]) => `127.0.0.1:${node.runnerPort}`
        const locksOf = async (node: (typeof cluster.nodes)[number]) =>
          Number(
            (await pg.query<{ n: string }>(`SELECT count(*) AS n FROM cluster_locks WHERE address = $1`, [
              runnerOf(node)
            ])).rows[0]!.n
          )
        const healthyOf = async (node: (typeof cluster.nodes)[number]) =>
          (await pg.query<{ healthy: boolean }>(`SELECT healthy FROM cluster_runners WHERE address = $1`, [
            runnerOf(node)
          ])).rows[0]?.healthy

        const result = yield* Effect.promise(async () => {
          const urls = cluster.nodes.map((node) => node.url)
          const token = await signUpAt(urls[0]!)
          const agentId = await echoAssistant(urls[0]!, token)
          const sessions = await Promise.all(
            Array.from({ length: SESSIONS }, (_, i) => startSession(urls[i % urls.length]!, token, agentId))
          )
          // One turn each, so every conversation has an owner.
          const deadline = Date.now() + 60_000
          await Promise.all(
            sessions.map((id, i) => sendUntilAnswered(() => urls, token, id, `${id}-1`, "one", deadline, i))
          )
          const owners = await pg.query<{ id: string; owner_runner: string }>(
            `SELECT id, owner_runner FROM runtime_sessions`
          )
          const owned = (node: (typeof cluster.nodes)[number]) =>
            owners.rows.filter((row) => row.owner_runner === runnerOf(node)).map((row) => row.id)
          const [victim, frozen] = [...cluster.nodes].sort((a, b) => owned(b).length - owned(a).length)

          // Frozen for 3 s: its heartbeat is late, its port still accepts, so it keeps everything.
          const frozenLocks = await locksOf(frozen!)
          frozen!.kill("SIGSTOP")
          await sleep(3_000)
          const whileFrozen = { locks: await locksOf(frozen!), healthy: await healthyOf(frozen!) }
          frozen!.kill("SIGCONT")

          const victimSessions = owned(victim!)
          const victimLocks = await locksOf(victim!)
          const killedAt = Date.now()
          victim!.kill("SIGKILL")
          const live = urls.filter((url) => url !== victim!.url)
          const answered = await Promise.all(
            victimSessions.map((id, i) =>
              sendUntilAnswered(() => live, token, id, `${id}-2`, "two", killedAt + 30_000, i).then((ack) => ({
                turn: ack.turn,
                after: ack.at - killedAt
              }))
            )
          )
          return {
            frozenLocks,
            whileFrozen,
            victimSessions,
            victimLocks,
            answered,
            locksAfter: await locksOf(victim!),
            healthyAfter: await healthyOf(victim!),
            said: cluster.nodes.filter((node) => node !== victim).map((node) => node.output()).join("\n")
          }
        })

        expect(result.frozenLocks).toBeGreaterThan(0)
        expect(result.whileFrozen).toEqual({ locks: result.frozenLocks, healthy: true })

        expect(result.victimSessions.length).toBeGreaterThan(0)
        expect(result.victimLocks).toBeGreaterThan(0)
        expect(result.answered.map((a) => a.turn)).toEqual(result.victimSessions.map(() => 2))
        const slowest = Math.max(...result.answered.map((a) => a.after))
        // Without the watch nothing could answer before the locks expire.
        expect(slowest).toBeLessThan(LOCK_EXPIRATION_S * 1000 / 2)
        expect(result.locksAfter).toBe(0)
        expect(result.healthyAfter).toBe(false)
        expect(result.said).toContain("runner port refuses connections")
        console.log(
          `dead runners: ${result.victimSessions.length} conversations of the killed node answered again within ` +
            `${slowest} ms (locks expiring after ${LOCK_EXPIRATION_S} s)`
        )
      }),
    240_000
  )
})
