import { Schema } from "effect"
import { VariableName } from "../VariableName.js"
import { Template } from "./Expression.js"
import { EventType } from "./TriggerData.js"

/** The longest a `wait` node may wait: 30 days, in seconds. */
export const MAX_WAIT_SECONDS = 30 * 24 * 60 * 60

/** A number of seconds a wait lasts or may last: 1 second to 30 days. */
export const WaitSeconds = Schema.Number.pipe(Schema.int(), Schema.between(1, MAX_WAIT_SECONDS))

const waitsForAPayload = {
  /** Where the payload that ends the wait is stored (`vars.<name>`). */
  outputVariable: Schema.optional(VariableName),
  /** Give up after this long and leave by the `timeout` handle (or fail when it has no edge). */
  timeoutSeconds: Schema.optional(WaitSeconds)
}

/**
 * What a `wait` node waits for: a person's approval (leaves by `approved` or
 * `rejected`), an external event by name, or a duration. In a chain run the
 * run pauses until `/resume` supplies the payload; in the simulator the next
 * turn's `payload` does, and durations are skipped.
 */
export const WaitData = Schema.Union(
  Schema.Struct({
    for: Schema.Literal("approval"),
    /** What the approver is asked; shown with the paused run. */
    prompt: Schema.optional(Template),
    ...waitsForAPayload
  }),
  Schema.Struct({
    for: Schema.Literal("event"),
    /** The name of the event that ends the wait. */
    event: EventType,
    ...waitsForAPayload
  }),
  Schema.Struct({
    for: Schema.Literal("duration"),
    seconds: WaitSeconds
  })
).annotations({ identifier: "WorkflowWaitData" })
export type WaitData = typeof WaitData.Type

/** The payload that ends a wait for approval. */
export const ApprovalDecision = Schema.Struct({
  approved: Schema.Boolean,
  comment: Schema.optional(Schema.String.pipe(Schema.maxLength(2000)))
}).annotations({ identifier: "ApprovalDecision", parseOptions: { onExcessProperty: "error" } })
export type ApprovalDecision = typeof ApprovalDecision.Type
