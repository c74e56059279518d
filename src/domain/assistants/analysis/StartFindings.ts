/**
 * Whether a flow can begin at all: exactly one start node, whose `next` edge
 * leads to a node. These are the findings the engine's `compile` refuses a
 * flow with (a flow failing them cannot run one step), and the analysis
 * reports them among the others.
 */
import type { FlowEdge } from "../FlowEdge.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNode } from "../FlowNode.js"
import { error } from "./Findings.js"

/** The start node when there is exactly one, and what stops the flow from starting (empty when nothing does). */
export const startOf = (
  nodes: ReadonlyArray<FlowNode>,
  edges: ReadonlyArray<FlowEdge>
): { readonly start: FlowNode | undefined; readonly findings: ReadonlyArray<Finding> } => {
  const starts = nodes.filter((node) => node.type === "start")
  const start = starts[0]
  if (start === undefined) return { start, findings: [error("missing-start", "The flow has no start node")] }
  if (starts.length > 1) {
    return {
      start: undefined,
      findings: [
        error("multiple-starts", "The flow has more than one start node", { nodeIds: starts.map((node) => node.id) })
      ]
    }
  }
  // Where the graph repeats an outcome, the first edge wins (as everywhere in the engine).
  const first = edges.find((edge) => edge.source === start.id && edge.kind === "next")
  if (first === undefined) {
    return {
      start,
      findings: [error("dead-end", `The start node ${start.id} has no next edge`, { nodeIds: [start.id] })]
    }
  }
  if (!nodes.some((node) => node.id === first.target)) {
    return {
      start,
      findings: [
        error("broken-reference", `The start node's edge ${first.id} leads to no node`, {
          nodeIds: [start.id],
          edgeIds: [first.id]
        })
      ]
    }
  }
  return { start, findings: [] }
}
