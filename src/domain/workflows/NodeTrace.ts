import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { ChainStepId, WorkflowNodeId } from "./Ids.js"
import { WorkflowNodeType } from "./WorkflowNode.js"

/** How one execution of a node ended: `waiting` for an input node or a wait that paused the run. */
export const NodeTraceStatus = Schema.Literal("succeeded", "failed", "skipped", "waiting")
export type NodeTraceStatus = typeof NodeTraceStatus.Type

/** One execution of a node, in the order nodes ran; a node in a loop appears once per iteration. */
export const NodeTrace = Schema.Struct({
  nodeId: WorkflowNodeId,
  type: WorkflowNodeType,
  status: NodeTraceStatus,
  startedAt: Schema.DateTimeUtc,
  durationMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  /** The loop iteration (from 0) when the node ran inside a loop body. */
  iteration: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  output: Schema.optional(JsonValue),
  error: Schema.optional(Schema.String)
}).annotations({ identifier: "WorkflowNodeTrace" })
export type NodeTrace = typeof NodeTrace.Type

/** Why a simulator session, a step or a chain run failed. */
export const RunFailureCode = Schema.Literal(
  "invalid-input",
  "not-runnable",
  "expression-error",
  "call-failed",
  "timeout",
  "max-iterations",
  "step-failed",
  "cancelled",
  "internal"
)
export type RunFailureCode = typeof RunFailureCode.Type

/** The failure of a run or a step, located at the node (and chain step) where it happened. */
export const RunFailure = Schema.Struct({
  code: RunFailureCode,
  message: Schema.String,
  nodeId: Schema.optional(WorkflowNodeId),
  stepId: Schema.optional(ChainStepId)
}).annotations({ identifier: "WorkflowRunFailure" })
export type RunFailure = typeof RunFailure.Type
