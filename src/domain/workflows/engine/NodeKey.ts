/**
 * The key of one node execution: deterministic and unique within a run, so a
 * durable run replayed after a crash asks its journal (the chain's activities,
 * the simulator's record) for the same keys in the same places. A key is the
 * node's visit within its scope, after the path of scopes that lead to it:
 *
 *   key    = scope* nodeId "#" visit [ ":" phase ]
 *   scope  = nodeId "#" visit ( "[" index "]" | ">" edgeId ) "/"
 *
 * `visit` counts from 1 the executions of that node in that scope; a loop's
 * iteration `index` counts from 0 and a parallel branch is named by the id of
 * the edge that starts it. So `review#2` is the second execution of `review`
 * at the top level, `each#1[3]/notify#1` the first of `notify` in the fourth
 * iteration of the loop `each`, and `fan#1>to-b/call#1` the first of `call`
 * on the branch of the parallel `fan` that the edge `to-b` starts. Node and
 * edge ids cannot hold `#`, `[`, `>`, `/` or `:`, so keys never collide.
 * Counters are per scope, never per run: concurrent branches count their own
 * visits, so a key never depends on which branch ran first.
 *
 * Phases name the executions after the first of one visit: a loop's
 * `each#1[3]:collect` (the value its fourth iteration contributes) and
 * `each#1:done`; a wait's or input's `approve#1:resume` once its payload
 * arrived (the payload itself is awaited under `approve#1`); an input's
 * `name#1:ask2`, `name#1:ask2:resume`... when it asks again.
 */

/** The key of one node execution (see the grammar above). */
export type NodeKey = string

/** Where a walk of the graph is: the key prefix of its scope, and its own visit counters. */
export interface KeyScope {
  readonly prefix: string
  /** Visits per node id in this scope; a scope is walked by one fiber at a time. */
  readonly visits: Map<string, number>
}

/** The top-level scope of a run. */
export const rootScope = (): KeyScope => ({ prefix: "", visits: new Map() })

/** The key of the next visit of `nodeId` in `scope` (counting it). */
export const nextVisit = (scope: KeyScope, nodeId: string): NodeKey => {
  const visit = (scope.visits.get(nodeId) ?? 0) + 1
  scope.visits.set(nodeId, visit)
  return `${scope.prefix}${nodeId}#${visit}`
}

/** The scope of one iteration of the loop executed as `loopKey`. */
export const iterationScope = (loopKey: NodeKey, index: number): KeyScope => ({
  prefix: `${loopKey}[${index}]/`,
  visits: new Map()
})

/** The scope of the branch of the parallel executed as `parallelKey` that `edgeId` starts. */
export const branchScope = (parallelKey: NodeKey, edgeId: string): KeyScope => ({
  prefix: `${parallelKey}>${edgeId}/`,
  visits: new Map()
})

/** A later execution of the same visit. */
export const phase = (key: NodeKey, name: string): NodeKey => `${key}:${name}`

/** The execution that reads what iteration `index` of the loop executed as `loopKey` contributes. */
export const collectKey = (loopKey: NodeKey, index: number): NodeKey => phase(`${loopKey}[${index}]`, "collect")
