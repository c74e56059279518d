/**
 * Where conversations can go: nodes no conversation reaches from the start
 * (`unreachable-node`, a warning: they do no harm, but are probably a
 * mistake), and loops a conversation enters and can never leave without the
 * user's help (`inescapable-cycle`, an error): a set of nodes that reach each
 * other, none of which waits for the user or finishes, with no edge out of
 * the set, so the engine goes round until its per-step limit ends the
 * conversation (`loop-limit`). A loop through a question or a router is a
 * menu, not a trap.
 */
import { stronglyConnected } from "../../StronglyConnected.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowNode } from "../FlowNode.js"
import { error, listed, warning } from "./Findings.js"
import type { FlowIndex } from "./FlowIndex.js"

/** The strongly connected components of the graph, each in the flow's node order, in that order. */
const components = (index: FlowIndex, ids: ReadonlyArray<FlowNodeId>): ReadonlyArray<ReadonlyArray<FlowNodeId>> => {
  const order = new Map<FlowNodeId, number>(ids.map((id, position) => [id, position]))
  const rank = (id: FlowNodeId) => order.get(id) ?? 0
  return stronglyConnected(ids, (id) => index.steps(id).map((step) => step.target))
    .map((component) => [...component].sort((a, b) => rank(a) - rank(b)))
    .sort((a, b) => rank(a[0]!) - rank(b[0]!))
}

const stopsTheLoop = (node: FlowNode): boolean =>
  node.type === "question" || node.type === "intent-router" || node.type === "end" || node.type === "handoff"

/** Inescapable loops among `ids` (the nodes a conversation can reach). */
const inescapableCycles = (index: FlowIndex, ids: ReadonlyArray<FlowNodeId>): ReadonlyArray<Finding> =>
  components(index, ids).flatMap((component) => {
    const members = new Set(component)
    const looped = component.length > 1 ||
      index.steps(component[0]!).some((step) => step.target === component[0])
    if (!looped) return []
    if (component.some((id) => stopsTheLoop(index.node(id)!))) return []
    if (component.some((id) => index.steps(id).some((step) => !members.has(step.target)))) return []
    return [
      error(
        "inescapable-cycle",
        `Nodes ${listed(component)} form a loop that never waits for the user and never leaves`,
        {
          nodeIds: component,
          edgeIds: component.flatMap((id) =>
            index.steps(id).flatMap((step) => (step.edge === undefined ? [] : [step.edge.id]))
          )
        }
      )
    ]
  })

/**
 * Unreachable nodes and inescapable loops. Without a single start node every
 * node counts as reachable (the start's own finding is the one to fix first).
 */
export const reachabilityFindings = (
  index: FlowIndex,
  start: FlowNode | undefined
): ReadonlyArray<Finding> => {
  const ids = [...new Set(index.graph.nodes.map((node) => node.id))]
  const reachable = start === undefined ? new Set(ids) : index.reachableFrom(start.id)
  const unreachable = ids
    .filter((id) => !reachable.has(id))
    .map((id) => warning("unreachable-node", `No conversation reaches node ${id} from the start`, { nodeIds: [id] }))
  return [...inescapableCycles(index, ids.filter((id) => reachable.has(id))), ...unreachable]
}
