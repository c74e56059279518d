/**
 * A draft graph indexed once for the checks: nodes by id and place, the live
 * edges out of and into each node (an edge is live when both its ends exist
 * and it leaves by an exit its source has: the only edges a run can follow),
 * the nodes a run can reach from the trigger, the body of each loop (the
 * nodes reached from its `body` exit without passing through the loop
 * again, where `item` and `index` are set), and the branches of each
 * parallel (the nodes reached from its exits before a join, or the loop
 * around the parallel, ends the branch).
 */
import type { WorkflowEdge, WorkflowGraph } from "../WorkflowGraph.js"
import type { WorkflowNode } from "../WorkflowNode.js"
import { exitsOf, handleOf } from "./Exits.js"

/** An edge a run can follow. */
export interface LiveEdge {
  readonly edge: WorkflowEdge
  readonly handle: string
  readonly source: WorkflowNode
  readonly target: WorkflowNode
}

export interface Topology {
  readonly graph: WorkflowGraph
  /** The nodes in graph order, the first of each id. */
  readonly nodes: ReadonlyArray<WorkflowNode>
  readonly node: (id: string) => WorkflowNode | undefined
  /** Each node's place in the graph. */
  readonly order: ReadonlyMap<string, number>
  readonly exits: (id: string) => ReadonlyArray<LiveEdge>
  readonly entries: (id: string) => ReadonlyArray<LiveEdge>
  readonly triggers: ReadonlyArray<WorkflowNode>
  /** The nodes a run reaches from a trigger (none without a trigger). */
  readonly reachable: ReadonlySet<string>
  /** The nodes of a loop's body (empty for a node that is not a loop). */
  readonly loopBody: (loopId: string) => ReadonlySet<string>
  /** The nodes inside at least one loop's body. */
  readonly inLoopBody: ReadonlySet<string>
  /** The nodes inside at least one parallel's branches. */
  readonly inParallelBranch: ReadonlySet<string>
}

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/** The nodes reached from `starts` along live edges, never entering a node `stops` says ends the way. */
const reach = (
  starts: ReadonlyArray<string>,
  exits: (id: string) => ReadonlyArray<LiveEdge>,
  stops: (id: string) => boolean = () => false
): ReadonlySet<string> => {
  const seen = new Set<string>()
  const queue: Array<string> = []
  const visit = (id: string) => {
    if (stops(id) || seen.has(id)) return
    seen.add(id)
    queue.push(id)
  }
  starts.forEach(visit)
  for (let index = 0; index < queue.length; index++) {
    for (const live of exits(queue[index]!)) visit(live.target.id)
  }
  return seen
}

const EMPTY: ReadonlySet<string> = new Set()

export const topologyOf = (graph: WorkflowGraph): Topology => {
  const byId = new Map<string, WorkflowNode>()
  const order = new Map<string, number>()
  for (const node of graph.nodes) {
    if (byId.has(node.id)) continue
    order.set(node.id, byId.size)
    byId.set(node.id, node)
  }
  const nodes = [...byId.values()]
  const exitSets = new Map(nodes.map((node) => [node.id, new Set(exitsOf(node))]))

  const outgoing = new Map<string, Array<LiveEdge>>()
  const incoming = new Map<string, Array<LiveEdge>>()
  const seenEdges = new Set<string>()
  for (const edge of graph.edges) {
    if (seenEdges.has(edge.id)) continue
    seenEdges.add(edge.id)
    const source = byId.get(edge.source)
    const target = byId.get(edge.target)
    const handle = handleOf(edge)
    if (source === undefined || target === undefined || !exitSets.get(source.id)!.has(handle)) continue
    const live: LiveEdge = { edge, handle, source, target }
    push(outgoing, source.id, live)
    push(incoming, target.id, live)
  }
  const exits = (id: string): ReadonlyArray<LiveEdge> => outgoing.get(id) ?? []
  const entries = (id: string): ReadonlyArray<LiveEdge> => incoming.get(id) ?? []

  const triggers = nodes.filter((node) => node.type === "trigger")
  const reachable = reach(triggers.map((node) => node.id), exits)

  const bodies = new Map<string, ReadonlySet<string>>()
  const inLoopBody = new Set<string>()
  for (const node of nodes) {
    if (node.type !== "loop") continue
    const starts = exits(node.id).filter((live) => live.handle === "body").map((live) => live.target.id)
    const body = reach(starts, exits, (id) => id === node.id)
    bodies.set(node.id, body)
    for (const id of body) inLoopBody.add(id)
  }

  const inParallelBranch = new Set<string>()
  for (const node of nodes) {
    if (node.type !== "parallel") continue
    const around = new Set<string>(nodes.filter((loop) => bodies.get(loop.id)?.has(node.id)).map((loop) => loop.id))
    const ends = (id: string) => id === node.id || around.has(id) || byId.get(id)!.type === "join"
    for (const id of reach(exits(node.id).map((live) => live.target.id), exits, ends)) inParallelBranch.add(id)
  }

  return {
    graph,
    nodes,
    node: (id) => byId.get(id),
    order,
    exits,
    entries,
    triggers,
    reachable,
    loopBody: (loopId) => bodies.get(loopId) ?? EMPTY,
    inLoopBody,
    inParallelBranch
  }
}
