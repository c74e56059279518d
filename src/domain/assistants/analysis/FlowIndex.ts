/**
 * A draft graph indexed once for the checks: nodes by id, each node's live
 * edges, where each node can go next (its live edges' targets and a jump's
 * destination), and which nodes a conversation can reach from the start.
 */
import type { Subflow } from "../Flow.js"
import type { FlowEdge } from "../FlowEdge.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"
import { liveEdges } from "./Outcomes.js"

/** A move from one node to the next: along an edge, or a jump (no edge). */
export interface Step {
  readonly target: FlowNodeId
  readonly edge: FlowEdge | undefined
}

export interface FlowIndex {
  readonly graph: FlowGraph
  readonly node: (id: string) => FlowNode | undefined
  /** The first edge per route key that `node` takes. */
  readonly live: (id: FlowNodeId) => ReadonlyMap<string, FlowEdge>
  /** Where a node goes next, to existing nodes only. */
  readonly steps: (id: FlowNodeId) => ReadonlyArray<Step>
  /** Where a jump goes: a node id (possibly missing), or `undefined` when its sub-flow does not exist. */
  readonly jumpTarget: (node: Extract<FlowNode, { type: "jump" }>) => FlowNodeId | undefined
  /** The nodes reachable from `from`, in the order they were first met. */
  readonly reachableFrom: (from: FlowNodeId) => ReadonlySet<FlowNodeId>
}

export const indexFlow = (graph: FlowGraph): FlowIndex => {
  const nodes = new Map<string, FlowNode>()
  for (const node of graph.nodes) if (!nodes.has(node.id)) nodes.set(node.id, node)
  const subflows = new Map<string, Subflow>()
  for (const subflow of graph.subflows) if (!subflows.has(subflow.id)) subflows.set(subflow.id, subflow)
  const bySource = new Map<string, Array<FlowEdge>>()
  for (const edge of graph.edges) {
    const list = bySource.get(edge.source)
    if (list === undefined) bySource.set(edge.source, [edge])
    else list.push(edge)
  }
  const live = new Map<string, ReadonlyMap<string, FlowEdge>>()
  for (const node of nodes.values()) live.set(node.id, liveEdges(node, bySource.get(node.id) ?? []))

  const jumpTarget = (node: Extract<FlowNode, { type: "jump" }>) => {
    const target = node.data.target
    return target.kind === "node" ? target.nodeId : subflows.get(target.subflowId)?.entryNodeId
  }

  const steps = new Map<string, ReadonlyArray<Step>>()
  for (const node of nodes.values()) {
    const out: Array<Step> = []
    if (node.type === "jump") {
      const target = jumpTarget(node)
      if (target !== undefined && nodes.has(target)) out.push({ target, edge: undefined })
    }
    for (const edge of live.get(node.id)!.values()) {
      if (nodes.has(edge.target)) out.push({ target: edge.target, edge })
    }
    steps.set(node.id, out)
  }

  const reachableFrom = (from: FlowNodeId) => {
    const seen = new Set<FlowNodeId>([from])
    const queue: Array<FlowNodeId> = [from]
    for (let index = 0; index < queue.length; index++) {
      for (const step of steps.get(queue[index]!) ?? []) {
        if (!seen.has(step.target)) {
          seen.add(step.target)
          queue.push(step.target)
        }
      }
    }
    return seen
  }

  return {
    graph,
    node: (id) => nodes.get(id),
    live: (id) => live.get(id) ?? new Map(),
    steps: (id) => steps.get(id) ?? [],
    jumpTarget,
    reachableFrom
  }
}
