import { Schema } from "effect"
import { ChainStepId, WorkflowNodeId } from "./Ids.js"
import { InputExpectation } from "./NodeData.js"
import { EventType } from "./TriggerData.js"

/**
 * What a paused run or a simulator session is waiting for, and so what the
 * next turn or `/resume` must supply: a user message (`input`), an
 * `ApprovalDecision` (`approval`) or the named event's payload (`event`).
 */
export const PendingWait = Schema.Struct({
  kind: Schema.Literal("input", "approval", "event"),
  nodeId: WorkflowNodeId,
  /** The chain step whose workflow is waiting (chain runs only). */
  stepId: Schema.optional(ChainStepId),
  /** The rendered prompt of the input or approval node. */
  prompt: Schema.optional(Schema.String),
  /** How an input node reads the message. */
  expect: Schema.optional(InputExpectation),
  /** The event that ends an event wait. */
  event: Schema.optional(EventType),
  /** When the wait gives up, if it has a time-out. */
  expiresAt: Schema.optional(Schema.DateTimeUtc)
}).annotations({ identifier: "WorkflowPendingWait" })
export type PendingWait = typeof PendingWait.Type
