/**
 * Repairs of the edges out of a node: drop each edge no outcome of the node
 * takes (`dangling-edge`), and each edge after the first for one outcome
 * (`duplicate-route`: the engine only ever followed the first).
 */
import { routeKey, takes } from "../analysis/Outcomes.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"

/** The graph without the node's dangling and duplicate edges. */
export const dropDeadEdges = (graph: FlowGraph, node: FlowNode): FlowGraph => {
  const seen = new Set<string>()
  const edges = graph.edges.filter((edge) => {
    if (edge.source !== node.id) return true
    if (!takes(node, edge)) return false
    const key = routeKey(edge)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return edges.length === graph.edges.length ? graph : { ...graph, edges }
}
