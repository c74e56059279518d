import { Schema } from "effect"
import { WorkflowNodeId } from "../Ids.js"
import { type RunFailure, RunFailureCode } from "../NodeTrace.js"

/**
 * Why a run of a workflow graph stopped, at the node where it did. A schema
 * of its own, so a durable node execution can store it as its failure and a
 * replay reads it back unchanged.
 */
export class WorkflowRunFailed extends Schema.TaggedError<WorkflowRunFailed>()("WorkflowRunFailed", {
  code: RunFailureCode,
  message: Schema.String,
  nodeId: Schema.optional(WorkflowNodeId)
}) {
  /** The failure as sessions, steps and runs report it. */
  get failure(): RunFailure {
    return this.nodeId === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, nodeId: this.nodeId }
  }
}

/** A run failure located at a node. */
export const failedAt = (nodeId: WorkflowNodeId, code: RunFailureCode, message: string): WorkflowRunFailed =>
  new WorkflowRunFailed({ code, message, nodeId })
