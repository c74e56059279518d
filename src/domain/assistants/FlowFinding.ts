import { Schema } from "effect"
import { Severity } from "../Severity.js"
import { VariableName } from "../VariableName.js"
import { FlowEdgeId, FlowNodeId } from "./FlowIds.js"
import { IntentName } from "./Intent.js"

/**
 * What the analysis can find. Graph: `missing-start`, `multiple-starts`,
 * `unreachable-node`, `dead-end` (an outcome the node can take has no edge),
 * `inescapable-cycle` (a loop that never waits for the user and never leaves),
 * `dangling-edge` (an edge no outcome of its source takes: an intent the router
 * does not list, a removed option or case, a kind the node type never takes),
 * `duplicate-route`, `broken-reference` (a jump or sub-flow entry naming
 * nothing), the three `*-without-fallback`. Content: `undefined-intent`,
 * `unused-intent`, `shared-utterance`, `few-utterances`,
 * `low-intent-accuracy`, `variable-read-before-set`, `invalid-expression`,
 * `invalid-pattern`, `unknown-tool`, `node-unavailable` (a node type whose
 * provider is not built yet).
 */
export const FindingCode = Schema.Literal(
  "missing-start",
  "multiple-starts",
  "unreachable-node",
  "dead-end",
  "inescapable-cycle",
  "dangling-edge",
  "duplicate-route",
  "broken-reference",
  "question-without-fallback",
  "router-without-fallback",
  "condition-without-fallback",
  "undefined-intent",
  "unused-intent",
  "shared-utterance",
  "few-utterances",
  "low-intent-accuracy",
  "variable-read-before-set",
  "invalid-expression",
  "invalid-pattern",
  "unknown-tool",
  "node-unavailable"
).annotations({ identifier: "FlowFindingCode" })
export type FindingCode = typeof FindingCode.Type

/** One problem the analysis found, with the parts of the draft it is about. */
export const Finding = Schema.Struct({
  code: FindingCode,
  /** Errors block a deployment (422); warnings do not. */
  severity: Severity,
  /** A sentence for people, e.g. "Node ask_email has no fallback edge". */
  message: Schema.String,
  nodeIds: Schema.Array(FlowNodeId),
  edgeIds: Schema.Array(FlowEdgeId),
  intents: Schema.Array(IntentName),
  variables: Schema.Array(VariableName),
  /** The utterance a `shared-utterance` finding is about. */
  utterance: Schema.optional(Schema.String),
  /** Whether `POST /flow/repair-node` on the finding's node can fix it. */
  repairable: Schema.Boolean
}).annotations({ identifier: "FlowFinding" })
export type Finding = typeof Finding.Type
