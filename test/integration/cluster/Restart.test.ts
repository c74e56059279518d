/**
 * The state of a conversation lives in the database, not in a node: stop
 * every node of a cluster, start them again, and each conversation goes on
 * where it was, with its variables and its whole transcript.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { echoAssistant, readSession, sendUntilAnswered, signUpAt, startSession } from "../../support/Conversations.js"
import { startCluster } from "../../support/LocalCluster.js"
import { freshDatabase } from "../../support/TestDatabase.js"

describe("a cluster restarted whole", () => {
  it.scopedLive("keeps every conversation where it was", () =>
    Effect.gen(function*() {
      const { url: databaseUrl } = yield* freshDatabase
      const cluster = yield* Effect.acquireRelease(
        Effect.promise(() => startCluster({ nodes: 2, databaseUrl })),
        (cluster) => Effect.promise(() => cluster.stop())
      )
      yield* Effect.promise(async () => {
        const urls = () => cluster.nodes.map((node) => node.url)
        const token = await signUpAt(urls()[0]!)
        const agentId = await echoAssistant(urls()[0]!, token)
        const sessions = await Promise.all(
          Array.from({ length: 10 }, (_, i) => startSession(urls()[i % 2]!, token, agentId))
        )
        const deadline = Date.now() + 60_000
        for (const [i, id] of sessions.entries()) {
          await sendUntilAnswered(urls, token, id, `${id}-1`, `before ${i}`, deadline, i)
        }

        // Every node down at once, then every node up again.
        for (const node of cluster.nodes) node.kill("SIGTERM")
        await Promise.all(cluster.nodes.map((node) => node.exited))
        await Promise.all(cluster.nodes.map((node) => node.restart()))

        for (const [i, id] of sessions.entries()) {
          // A retry of the turn from before the restart answers what it answered then, and runs nothing.
          const again = await sendUntilAnswered(urls, token, id, `${id}-1`, `before ${i}`, deadline, i + 1)
          expect(again.turn).toBe(1)
          const next = await sendUntilAnswered(urls, token, id, `${id}-2`, `after ${i}`, deadline, i + 1)
          expect(next.turn).toBe(2)
          const { session, transcript } = await readSession(urls()[i % 2]!, token, id)
          expect(session.turn).toBe(2)
          expect(session.state.variables).toEqual({ said: `after ${i}` })
          expect(transcript.filter((entry: any) => entry.role === "user").map((entry: any) => entry.input.text))
            .toEqual([`before ${i}`, `after ${i}`])
        }
      })
    }), 180_000)
})
