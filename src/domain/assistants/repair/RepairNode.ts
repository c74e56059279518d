/**
 * `repair-node`, the pure part: fix what can be fixed mechanically about one
 * node, in this order: turn its branching `next` edges into a choice, drop
 * its dangling and duplicate edges, re-point its undefined intents, then give
 * each missing outcome and missing fallback an edge to a safe end node.
 * Deterministic (the same graph, intents and node give the same change) and
 * idempotent: a node with nothing left to fix comes back unchanged. A repair
 * that would leave the flow with more findings than before is not made (the
 * node's findings stay, for a person). The answer says what changed, which of
 * the node's findings it fixed and which remain.
 */
import type { AnalysisIntent } from "../analysis/AnalysisIntent.js"
import { analyzeFlow } from "../analysis/AnalyzeFlow.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowDiff } from "../FlowRepair.js"
import type { FlowGraph } from "../FlowStructure.js"
import { branchesToChoice } from "./ChoiceBranches.js"
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

/** A finding without its wording: what it is about. */
export const findingIdentity = (finding: Finding) =>
  JSON.stringify([finding.code, finding.nodeIds, finding.edgeIds, finding.intents, finding.variables])

/** The graph with `nodeId`'s repairs applied, findings not checked (the node must exist). */
export const repairNodeGraph = (
  graph: FlowGraph,
  intents: ReadonlyArray<AnalysisIntent>,
  nodeId: FlowNodeId
): FlowGraph => {
  const current = (g: FlowGraph) => g.nodes.find((node) => node.id === nodeId)!
  const branched = branchesToChoice(graph, current(graph))
  const cleaned = dropDeadEdges(branched, current(branched))
  const repointed = repointIntents(cleaned, current(cleaned), intents)
  const repaired = addMissingExits(repointed, current(repointed))
  // A choice put after the node is part of its repair: it gets its fallback too.
  const known = new Set<string>(graph.nodes.map((node) => node.id))
  return repaired.nodes
    .filter((node) => !known.has(node.id) && node.type === "question")
    .reduce((g, choice) => addMissingExits(g, g.nodes.find((node) => node.id === choice.id)!), repaired)
}

/** Repairs `nodeId`; `undefined` when the graph has no such node. */
export const repairNode = (
  graph: FlowGraph,
  intents: ReadonlyArray<AnalysisIntent>,
  nodeId: FlowNodeId
): NodeRepair | undefined => {
  if (!graph.nodes.some((node) => node.id === nodeId)) return undefined
  const all = analyzeFlow(graph, intents)
  const candidate = repairNodeGraph(graph, intents, nodeId)
  const candidateDiff = diffGraphs(graph, candidate)
  const candidateFindings = isEmptyDiff(candidateDiff) ? all : analyzeFlow(candidate, intents)
  const kept = !isEmptyDiff(candidateDiff) && candidateFindings.length <= all.length
  const diff = kept ? candidateDiff : diffGraphs(graph, graph)
  const before = aboutNode(all, nodeId)
  const after = kept ? aboutNode(candidateFindings, nodeId) : before
  const remainingKeys = new Set(after.map(findingIdentity))
  return {
    graph: kept ? candidate : graph,
    changed: kept,
    diff,
    fixed: before.filter((finding) => !remainingKeys.has(findingIdentity(finding))),
    remaining: after
  }
}
