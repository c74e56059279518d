/**
 * What the overload benchmarks share: a fresh, warmed node on a database of
 * its own, and a closed-loop run against it with the node's CPU per turn.
 */
import { Effect } from "effect"
import { type ClusterNode, localCluster } from "../../test/support/LocalCluster.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { parleyTarget } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { load, percentile, type Target } from "../turns/Load.js"

export const SESSIONS = 400
const WARM_UP_SECONDS = 15
/** Below the default bound, so the warm-up is the same for every node. */
const WARM_UP_CONNECTIONS = 16

/** Both bounds off: the node admits everything, as a node without admission control. */
export const UNBOUNDED = { PARLEY_MAX_TURNS_IN_FLIGHT: "0", PARLEY_MAX_REQUESTS_IN_FLIGHT: "0" } as const

/** A warmed node and the sessions its load goes to. */
export interface Running {
  readonly node: ClusterNode
  readonly target: Target
}

/**
 * A fresh node with `env` on a fresh database, warmed up, for the life of the
 * scope. Each node has a database of its own: an unbounded node under overload
 * leaves thousands of stored turns that its clients gave up on, and a node
 * started on the same database would run them. `nodeFlags` follow the
 * node's own Node flags (a later flag wins).
 */
export const freshNode = (env: Record<string, string>, nodeFlags: ReadonlyArray<string> = []) =>
  Effect.gen(function*() {
    const { url: databaseUrl } = yield* emptyDatabase
    const cluster = yield* localCluster({ nodes: 1, databaseUrl, env, nodeFlags })
    const node = cluster.nodes[0]!
    const target = yield* parleyTarget([node.url], SESSIONS)
    yield* Effect.promise(() => load(target, WARM_UP_CONNECTIONS, WARM_UP_SECONDS))
    return { node, target } satisfies Running
  })

/** One closed-loop run. */
export interface SweepPoint {
  readonly connections: number
  readonly turnsPerSecond: number
  readonly p99: number
  readonly refused: number
  /** The node's CPU per answered turn, in ms (from /proc: user + system). */
  readonly cpuPerTurn: number
}

/** `connections` closed-loop clients for `seconds`. */
export const closedLoop = (running: Running, connections: number, seconds: number) =>
  Effect.gen(function*() {
    const cpuBefore = cpuMillisOf(running.node.pid)
    const result = yield* Effect.promise(() => load(running.target, connections, seconds))
    return {
      connections,
      turnsPerSecond: result.ok / result.seconds,
      p99: percentile(result.latencies, 99),
      refused: result.failed,
      cpuPerTurn: (cpuMillisOf(running.node.pid) - cpuBefore) / result.ok
    } satisfies SweepPoint
  })

/** A closed-loop point as the reports print it. */
export const pointText = (p: SweepPoint) =>
  `${p.connections} conn ${p.turnsPerSecond.toFixed(0)}/s p99 ${p.p99.toFixed(0)} ms ${
    p.cpuPerTurn.toFixed(1)
  } ms CPU/turn`
