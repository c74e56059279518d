/**
 * `variable-read-before-set`: a node reads a variable that some path from the
 * start to it does not set. A warning, not an error: a session may be
 * started with variables (`POST /runtime/sessions` takes them), and a
 * missing value reads as empty text or `null` rather than failing. Computed
 * as a forward "certainly set" data flow over the reachable graph: what is
 * set on arrival at a node is what every way into it has set.
 */
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowNode } from "../FlowNode.js"
import { listed, warning } from "./Findings.js"
import type { FlowIndex } from "./FlowIndex.js"
import { readsOf, setOn } from "./VariableReads.js"

/**
 * What every way from the start into each reachable node has set on arrival
 * there; a node the start does not reach has no entry.
 */
export const certainlySetOnArrival = (
  index: FlowIndex,
  start: FlowNode
): ReadonlyMap<FlowNodeId, ReadonlySet<string>> => {
  // `undefined` is "not reached yet" (everything, for an intersection).
  const setOnArrival = new Map<FlowNodeId, ReadonlySet<string>>([[start.id, new Set()]])
  const queue: Array<FlowNodeId> = [start.id]
  const queued = new Set<FlowNodeId>(queue)
  while (queue.length > 0) {
    const id = queue.shift()!
    queued.delete(id)
    const node = index.node(id)!
    const arrival = setOnArrival.get(id)!
    for (const step of index.steps(id)) {
      const set = setOn(node, step.edge)
      const leaving = set === undefined || arrival.has(set) ? arrival : new Set([...arrival, set])
      const known = setOnArrival.get(step.target)
      const merged = known === undefined ? leaving : new Set([...known].filter((name) => leaving.has(name)))
      if (known !== undefined && merged.size === known.size) continue
      setOnArrival.set(step.target, merged)
      if (!queued.has(step.target)) {
        queued.add(step.target)
        queue.push(step.target)
      }
    }
  }
  return setOnArrival
}

/** Read-before-set findings, one per node, in the flow's node order; none without a single start. */
export const variableFindings = (index: FlowIndex, start: FlowNode | undefined): ReadonlyArray<Finding> => {
  if (start === undefined) return []
  const setOnArrival = certainlySetOnArrival(index, start)
  const findings: Array<Finding> = []
  const seen = new Set<string>()
  for (const node of index.graph.nodes) {
    if (seen.has(node.id) || !setOnArrival.has(node.id)) continue
    seen.add(node.id)
    const arrival = setOnArrival.get(node.id) ?? new Set()
    const unset = readsOf(node).filter((name) => !arrival.has(name))
    if (unset.length === 0) continue
    findings.push(
      warning(
        "variable-read-before-set",
        `Node ${node.id} reads ${listed(unset)}, which some path from the start does not set first`,
        { nodeIds: [node.id], variables: unset }
      )
    )
  }
  return findings
}
