/**
 * `repair-node`, the pure part: fix what can be fixed mechanically about one
 * node, in this order: drop its dangling and duplicate edges, re-point its
 * undefined intents, then give each missing outcome and missing fallback an
 * edge to an end node. Deterministic (the same graph, intents and node give
 * the same change) and idempotent: a node with nothing left to fix comes back
 * unchanged. The answer says what changed, which of the node's findings it
 * fixed and which remain for a person.
 */
import type { AnalysisIntent } from "../analysis/AnalysisIntent.js"
import { analyzeFlow } from "../analysis/AnalyzeFlow.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowDiff } from "../FlowRepair.js"
import type { FlowGraph } from "../FlowStructure.js"
import { dropDeadEdges } from "./EdgeCleanup.js"
import { addMissingExits } from "./ExitRepairs.js"
import { diffGraphs, isEmptyDiff } from "./GraphDiff.js"
import { repointIntents } from "./IntentRepoint.js"

export interface NodeRepair {
  /** The graph after the repair (the same object when nothing changed). */
  readonly graph: FlowGraph
  readonly changed: boolean
  readonly diff: FlowDiff
  readonly fixed: ReadonlyArray<Finding>
  readonly remaining: ReadonlyArray<Finding>
}

const aboutNode = (findings: ReadonlyArray<Finding>, nodeId: FlowNodeId) =>
  findings.filter((finding) => finding.nodeIds.includes(nodeId))

const identity = (finding: Finding) =>
  JSON.stringify([finding.code, finding.nodeIds, finding.edgeIds, finding.intents, finding.variables])

/** Repairs `nodeId`; `undefined` when the graph has no such node. */
export const repairNode = (
  graph: FlowGraph,
  intents: ReadonlyArray<AnalysisIntent>,
  nodeId: FlowNodeId
): NodeRepair | undefined => {
  if (!graph.nodes.some((node) => node.id === nodeId)) return undefined
  const current = (g: FlowGraph) => g.nodes.find((node) => node.id === nodeId)!
  const cleaned = dropDeadEdges(graph, current(graph))
  const repointed = repointIntents(cleaned, current(cleaned), intents)
  const repaired = addMissingExits(repointed, current(repointed))
  const diff = diffGraphs(graph, repaired)
  const changed = !isEmptyDiff(diff)
  const before = aboutNode(analyzeFlow(graph, intents), nodeId)
  const after = changed ? aboutNode(analyzeFlow(repaired, intents), nodeId) : before
  const remainingKeys = new Set(after.map(identity))
  return {
    graph: changed ? repaired : graph,
    changed,
    diff,
    fixed: before.filter((finding) => !remainingKeys.has(identity(finding))),
    remaining: after
  }
}
