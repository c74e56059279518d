import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { Severity } from "../Severity.js"
import { WorkflowEdgeId, WorkflowId, WorkflowNodeId } from "./Ids.js"

/** What validate-publish checks, grouped as shape, reachability, expressions and references. */
export const ProblemCode = Schema.Literal(
  // shape
  "no-trigger",
  "several-triggers",
  "no-output",
  "dangling-edge",
  "unknown-handle",
  "missing-branch",
  "join-without-branches",
  "parallel-joins-apart",
  "loop-without-body",
  // reachability
  "unreachable-node",
  "dead-end",
  "cycle-without-exit",
  // expressions and variables
  "expression-syntax",
  "template-syntax",
  "expression-type",
  "unknown-variable",
  "variable-before-set",
  "invalid-output-schema",
  // references
  "missing-tool",
  "missing-secret",
  "missing-agent",
  "agent-not-published",
  "llm-not-configured"
)
export type ProblemCode = typeof ProblemCode.Type

/** One finding of validate-publish, located at a node or an edge when it has a place. */
export const PublishProblem = Schema.Struct({
  severity: Severity,
  code: ProblemCode,
  message: Schema.String,
  nodeId: Schema.optional(WorkflowNodeId),
  edgeId: Schema.optional(WorkflowEdgeId),
  /** The dotted path of the offending field inside the node, e.g. `data.cases.2.value`. */
  field: Schema.optional(Schema.String)
}).annotations({ identifier: "WorkflowPublishProblem" })
export type PublishProblem = typeof PublishProblem.Type

/** Every problem of the draft at one revision, without publishing; `publishable` when none is an error. */
export const PublishCheck = Schema.Struct({
  workflowId: WorkflowId,
  revision: Revision,
  publishable: Schema.Boolean,
  errors: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  warnings: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  problems: Schema.Array(PublishProblem)
}).annotations({ identifier: "WorkflowPublishCheck" })
export type PublishCheck = typeof PublishCheck.Type

/** Publish refused: the draft has errors. Every problem (warnings too) is listed. */
export class WorkflowPublishRefused extends Schema.TaggedError<WorkflowPublishRefused>()(
  "WorkflowPublishRefused",
  { workflowId: WorkflowId, revision: Revision, problems: Schema.Array(PublishProblem), message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
