/**
 * How the analysis writes a finding and in what order it answers them:
 * errors first, then by kind (the order of `FindingCode`), and within a kind
 * in the order the checks met them (the flow's own order of nodes, edges and
 * intents), so the same draft always gives the same list.
 */
import { type Finding, FindingCode } from "../FlowFinding.js"
import type { FlowEdgeId, FlowNodeId } from "../FlowIds.js"

/** The parts of a finding besides its code, severity and sentence; all default to none. */
export interface FindingParts {
  readonly nodeIds?: ReadonlyArray<FlowNodeId>
  readonly edgeIds?: ReadonlyArray<FlowEdgeId>
  readonly intents?: ReadonlyArray<string>
  readonly variables?: ReadonlyArray<string>
  readonly utterance?: string
  readonly repairable?: boolean
}

/** An error finding: it blocks a deployment. */
export const error = (code: FindingCode, message: string, parts: FindingParts = {}): Finding =>
  make(code, "error", message, parts)

/** A warning finding: reported, never blocking. */
export const warning = (code: FindingCode, message: string, parts: FindingParts = {}): Finding =>
  make(code, "warning", message, parts)

const make = (code: FindingCode, severity: Finding["severity"], message: string, parts: FindingParts): Finding => ({
  code,
  severity,
  message,
  nodeIds: parts.nodeIds ?? [],
  edgeIds: parts.edgeIds ?? [],
  intents: parts.intents ?? [],
  variables: parts.variables ?? [],
  ...(parts.utterance === undefined ? {} : { utterance: parts.utterance }),
  repairable: parts.repairable ?? false
})

const codeRank = new Map<string, number>(FindingCode.literals.map((code, index) => [code, index]))

/** Errors first, then by kind; stable within a kind. */
export const ordered = (findings: ReadonlyArray<Finding>): ReadonlyArray<Finding> =>
  findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) =>
      (a.finding.severity === b.finding.severity ? 0 : a.finding.severity === "error" ? -1 : 1) ||
      codeRank.get(a.finding.code)! - codeRank.get(b.finding.code)! ||
      a.index - b.index
    )
    .map(({ finding }) => finding)

/** "a", "a and b", "a, b and c". */
export const listed = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`
