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
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowNode } from "../FlowNode.js"
import { error, listed, warning } from "./Findings.js"
import type { FlowIndex } from "./FlowIndex.js"

/** The strongly connected components of the graph (Tarjan, iteratively), each in the flow's node order. */
const components = (index: FlowIndex, ids: ReadonlyArray<FlowNodeId>): ReadonlyArray<ReadonlyArray<FlowNodeId>> => {
  const order = new Map<FlowNodeId, number>(ids.map((id, position) => [id, position]))
  const lowlink = new Map<FlowNodeId, number>()
  const number = new Map<FlowNodeId, number>()
  const onStack = new Set<FlowNodeId>()
  const stack: Array<FlowNodeId> = []
  const found: Array<Array<FlowNodeId>> = []
  let counter = 0
  for (const root of ids) {
    if (number.has(root)) continue
    const work: Array<{ id: FlowNodeId; next: number }> = [{ id: root, next: 0 }]
    number.set(root, counter)
    lowlink.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const steps = index.steps(frame.id)
      if (frame.next < steps.length) {
        const target = steps[frame.next++]!.target
        if (!number.has(target)) {
          number.set(target, counter)
          lowlink.set(target, counter++)
          stack.push(target)
          onStack.add(target)
          work.push({ id: target, next: 0 })
        } else if (onStack.has(target)) {
          lowlink.set(frame.id, Math.min(lowlink.get(frame.id)!, number.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) lowlink.set(parent.id, Math.min(lowlink.get(parent.id)!, lowlink.get(frame.id)!))
      if (lowlink.get(frame.id) === number.get(frame.id)) {
        const component: Array<FlowNodeId> = []
        let member: FlowNodeId
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.id)
        found.push(component.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)))
      }
    }
  }
  return found.sort((a, b) => (order.get(a[0]!) ?? 0) - (order.get(b[0]!) ?? 0))
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
