import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { AssistantId } from "./Assistant.js"
import { Finding } from "./FlowFinding.js"
import { NluReport } from "./NluReport.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/**
 * The analysis of an Assistant's draft (`GET /flow/analysis`): every finding
 * about the graph and its intents, errors first, and the NLU report. The graph
 * part is computed on request for `revision`; the NLU part may be older (see
 * its status).
 */
export const FlowAnalysis = Schema.Struct({
  agentId: AssistantId,
  /** The draft revision analysed. */
  revision: Revision,
  analysedAt: Schema.DateTimeUtc,
  /** No finding is an error: a deployment of this revision would be accepted. */
  deployable: Schema.Boolean,
  errorCount: Count,
  warningCount: Count,
  findings: Schema.Array(Finding),
  nlu: NluReport
}).annotations({ identifier: "FlowAnalysis" })
export type FlowAnalysis = typeof FlowAnalysis.Type
