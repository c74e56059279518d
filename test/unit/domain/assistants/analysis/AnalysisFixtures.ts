/** Running the analysis over fixture graphs, and picking out findings of one kind. */
import { type AnalysisIntent, analyzeFlow } from "../../../../../src/domain/assistants/analysis/AnalyzeFlow.js"
import type { Subflow } from "../../../../../src/domain/assistants/Flow.js"
import type { FlowEdge } from "../../../../../src/domain/assistants/FlowEdge.js"
import type { Finding, FindingCode } from "../../../../../src/domain/assistants/FlowFinding.js"
import type { FlowNode } from "../../../../../src/domain/assistants/FlowNode.js"

export interface Draft {
  readonly nodes: ReadonlyArray<FlowNode>
  readonly edges: ReadonlyArray<FlowEdge>
  readonly subflows?: ReadonlyArray<Subflow>
  readonly intents?: ReadonlyArray<AnalysisIntent>
}

export const analyze = (draft: Draft): ReadonlyArray<Finding> =>
  analyzeFlow({ nodes: draft.nodes, edges: draft.edges, subflows: draft.subflows ?? [] }, draft.intents ?? [])

/** The findings of one kind. */
export const ofCode = (findings: ReadonlyArray<Finding>, code: FindingCode) =>
  findings.filter((finding) => finding.code === code)

/** The findings of one kind about one node. */
export const about = (findings: ReadonlyArray<Finding>, code: FindingCode, nodeId: string) =>
  ofCode(findings, code).filter((finding) => finding.nodeIds.includes(nodeId as never))
