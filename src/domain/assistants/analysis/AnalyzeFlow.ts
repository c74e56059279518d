/**
 * The analysis of a draft (DESIGN §6): every finding about its graph, its
 * nodes' content and its intents, errors first, in a deterministic order.
 * Errors block a deployment (422); warnings do not. Pure: the same graph and
 * intents always give the same findings. The NLU part (cross-validated
 * accuracy) is measured elsewhere and read by `nluFindings`.
 */
import type { Finding } from "../FlowFinding.js"
import type { FlowGraph } from "../FlowStructure.js"
import type { AnalysisIntent } from "./AnalysisIntent.js"
import { contentFindings } from "./ContentFindings.js"
import { ordered } from "./Findings.js"
import { indexFlow } from "./FlowIndex.js"
import { intentFindings } from "./IntentFindings.js"
import { reachabilityFindings } from "./ReachabilityFindings.js"
import { routeFindings } from "./RouteFindings.js"
import { startOf } from "./StartFindings.js"
import { variableFindings } from "./VariableFindings.js"

export type { AnalysisIntent } from "./AnalysisIntent.js"

/** Every finding about a draft, errors first. */
export const analyzeFlow = (flow: FlowGraph, intents: ReadonlyArray<AnalysisIntent>): ReadonlyArray<Finding> => {
  const index = indexFlow(flow)
  const { findings: startFindings, start } = startOf(flow.nodes, flow.edges)
  return ordered([
    ...startFindings,
    ...routeFindings(index),
    ...reachabilityFindings(index, start),
    ...intentFindings(flow.nodes, intents),
    ...variableFindings(index, start),
    ...contentFindings(flow.nodes, intents)
  ])
}

/** Whether a deployment of the analysed draft would be accepted: no finding is an error. */
export const isDeployable = (findings: ReadonlyArray<Finding>): boolean =>
  findings.every((finding) => finding.severity !== "error")
