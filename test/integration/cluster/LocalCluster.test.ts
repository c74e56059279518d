/**
 * The tests' handle on a local cluster: a node killed with SIGKILL comes back
 * on the same address when restarted, while the other keeps serving.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { localCluster } from "../../support/LocalCluster.js"
import { freshDatabase } from "../../support/TestDatabase.js"

const readiness = (url: string) =>
  Effect.promise(() => fetch(`${url}/health/ready`).then((response) => response.status))

describe("LocalCluster", () => {
  it.scopedLive("a node killed with SIGKILL restarts on its ports and is ready again", () =>
    Effect.gen(function*() {
      const { url } = yield* freshDatabase
      const cluster = yield* localCluster({ nodes: 2, databaseUrl: url })
      const [first, second] = cluster.nodes
      expect(yield* readiness(first!.url)).toBe(200)
      expect(yield* readiness(second!.url)).toBe(200)

      const killed = first!.pid
      first!.kill("SIGKILL")
      expect(yield* Effect.promise(() => first!.exited)).toEqual({ code: null, signal: "SIGKILL" })
      expect(yield* readiness(second!.url)).toBe(200)

      yield* Effect.promise(() => first!.restart())
      expect(first!.pid).not.toBe(killed)
      expect(yield* readiness(first!.url)).toBe(200)
      expect(first!.output()).toContain(`Listening on ${first!.url}`)
    }), 180_000)
})
