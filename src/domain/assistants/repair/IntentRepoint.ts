/**
 * Repair of a router's undefined intents: each is re-pointed to the defined
 * intent nearest in name that the router does not list yet (see
 * `IntentSimilarity`), in the router's list and on its `intent` edge; one
 * with no such intent is left for a person.
 */
import type { AnalysisIntent } from "../analysis/AnalysisIntent.js"
import { repointCandidates } from "../analysis/IntentFindings.js"
import { nearestName } from "../analysis/IntentSimilarity.js"
import type { FlowNode } from "../FlowNode.js"
import type { FlowGraph } from "../FlowStructure.js"

/** The graph with the router's undefined intents re-pointed where possible. */
export const repointIntents = (
  graph: FlowGraph,
  node: FlowNode,
  intents: ReadonlyArray<AnalysisIntent>
): FlowGraph => {
  if (node.type !== "intent-router") return graph
  const defined = [...new Set(intents.map((intent) => intent.name))]
  const renames = new Map<string, string>()
  let listed = node.data.intents
  for (const name of node.data.intents) {
    if (defined.includes(name) || renames.has(name)) continue
    const nearest = nearestName(name, repointCandidates({ ...node, data: { ...node.data, intents: listed } }, defined))
    if (nearest === undefined) continue
    renames.set(name, nearest)
    listed = listed.map((listedName) => (listedName === name ? nearest : listedName))
  }
  if (renames.size === 0) return graph
  const router: FlowNode = { ...node, data: { ...node.data, intents: listed } }
  return {
    ...graph,
    nodes: graph.nodes.map((item) => (item.id === node.id ? router : item)),
    edges: graph.edges.map((edge) =>
      edge.source === node.id && edge.kind === "intent" && renames.has(edge.intent)
        ? { ...edge, intent: renames.get(edge.intent)! }
        : edge
    )
  }
}
