/**
 * `POST /flow/repair`, the pure part: every repairable finding of a draft
 * fixed in one change, node by node in the flow's order with the same repairs
 * as `repair-node` (a choice for branches, dead edges dropped, intents
 * re-pointed, missing exits to a safe end). Repairs are kept only when the
 * flow is left with no more findings than it had and no error it did not
 * have, so a repair never trades one problem for more. They are tried all at
 * once and, when that fails the rule, in halves down to the single node whose
 * repair is refused: one analysis for a flow whose repairs are all good,
 * rather than one per node (a 1,000-node flow analyses in tens of
 * milliseconds). The repairs of one node can give another something to fix,
 * so the walk repeats, up to three times, until a walk changes nothing.
 * Deterministic, and idempotent: a second repair changes nothing.
 */
import type { AnalysisIntent } from "../analysis/AnalysisIntent.js"
import { analyzeFlow } from "../analysis/AnalyzeFlow.js"
import type { Finding } from "../FlowFinding.js"
import type { FlowNodeId } from "../FlowIds.js"
import type { FlowDiff } from "../FlowRepair.js"
import type { FlowGraph } from "../FlowStructure.js"
import { diffGraphs, isEmptyDiff } from "./GraphDiff.js"
import { findingIdentity, repairNodeGraph } from "./RepairNode.js"

const WALKS = 3

export interface FlowRepairOutcome {
  /** The graph after the repair (the same object when nothing changed). */
  readonly graph: FlowGraph
  readonly changed: boolean
  readonly diff: FlowDiff
  /** The findings of the draft that the repair removed. */
  readonly fixed: ReadonlyArray<Finding>
  /** Every finding of the repaired draft: what is left for a person. */
  readonly remaining: ReadonlyArray<Finding>
}

/** The nodes with a repairable finding, in the flow's order, each once. */
const repairableNodes = (graph: FlowGraph, findings: ReadonlyArray<Finding>) => {
  const ids = new Set(findings.filter((finding) => finding.repairable).flatMap((finding) => finding.nodeIds))
  const seen = new Set<string>()
  return graph.nodes.filter((node) => ids.has(node.id) && !seen.has(node.id) && seen.add(node.id)).map((n) => n.id)
}

interface State {
  readonly graph: FlowGraph
  readonly findings: ReadonlyArray<Finding>
}

const errorKeys = (findings: ReadonlyArray<Finding>) =>
  new Set(findings.filter((finding) => finding.severity === "error").map(findingIdentity))

/** Whether `after` is no worse than `before`: no more findings, no new error. */
const acceptable = (before: ReadonlyArray<Finding>, after: ReadonlyArray<Finding>) => {
  if (after.length > before.length) return false
  const known = errorKeys(before)
  return [...errorKeys(after)].every((key) => known.has(key))
}

/** `state` with the repairs of `nodeIds` that pass the rule applied. */
const attempt = (
  state: State,
  intents: ReadonlyArray<AnalysisIntent>,
  nodeIds: ReadonlyArray<string>
): State => {
  if (nodeIds.length === 0) return state
  let candidate = state.graph
  for (const nodeId of nodeIds) {
    if (candidate.nodes.some((node) => node.id === nodeId)) {
      candidate = repairNodeGraph(candidate, intents, nodeId as FlowNodeId)
    }
  }
  if (candidate === state.graph || isEmptyDiff(diffGraphs(state.graph, candidate))) return state
  const findings = analyzeFlow(candidate, intents)
  if (acceptable(state.findings, findings)) return { graph: candidate, findings }
  if (nodeIds.length === 1) return state
  const half = Math.ceil(nodeIds.length / 2)
  return attempt(attempt(state, intents, nodeIds.slice(0, half)), intents, nodeIds.slice(half))
}

/** Repairs every node of `graph` that can be repaired. */
export const repairFlow = (graph: FlowGraph, intents: ReadonlyArray<AnalysisIntent>): FlowRepairOutcome => {
  const initial = analyzeFlow(graph, intents)
  let state: State = { graph, findings: initial }
  for (let walk = 0; walk < WALKS; walk++) {
    const next = attempt(state, intents, repairableNodes(state.graph, state.findings))
    if (next === state) break
    state = next
  }
  const diff = diffGraphs(graph, state.graph)
  const changed = !isEmptyDiff(diff)
  const left = new Set(state.findings.map(findingIdentity))
  return {
    graph: changed ? state.graph : graph,
    changed,
    diff,
    fixed: initial.filter((finding) => !left.has(findingIdentity(finding))),
    remaining: state.findings
  }
}
