/**
 * What a write changed in a flow graph: nodes and edges added, removed, or
 * changed (with their old and new content), each list in the graph's order.
 */
import type { FlowEdge } from "../FlowEdge.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowDiff } from "../FlowRepair.js"
import type { FlowGraph } from "../FlowStructure.js"

const compare = <A extends { readonly id: string }>(before: ReadonlyArray<A>, after: ReadonlyArray<A>) => {
  const old = new Map(before.map((item) => [item.id, item]))
  const now = new Map(after.map((item) => [item.id, item]))
  return {
    added: after.filter((item) => !old.has(item.id)),
    removed: before.filter((item) => !now.has(item.id)),
    changed: after.flatMap((item) => {
      const was = old.get(item.id)
      return was !== undefined && JSON.stringify(was) !== JSON.stringify(item) ? [{ before: was, after: item }] : []
    })
  }
}

/** The difference between two graphs. */
export const diffGraphs = (before: FlowGraph, after: FlowGraph): FlowDiff => {
  const nodes = compare<FlowNode>(before.nodes, after.nodes)
  const edges = compare<FlowEdge>(before.edges, after.edges)
  return {
    addedNodes: nodes.added,
    removedNodes: nodes.removed,
    changedNodes: nodes.changed,
    addedEdges: edges.added,
    removedEdges: edges.removed,
    changedEdges: edges.changed
  }
}

/** Whether a diff changes nothing. */
export const isEmptyDiff = (diff: FlowDiff): boolean =>
  diff.addedNodes.length + diff.removedNodes.length + diff.changedNodes.length + diff.addedEdges.length +
      diff.removedEdges.length + diff.changedEdges.length === 0
