import { Model } from "@effect/sql"
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { ChainRunId, ChainStepId, WorkflowId, WorkflowVersionNumber } from "./Ids.js"
import { RunFailure } from "./NodeTrace.js"

/** How one attempt of a step stands: `paused` on a wait, `skipped` when its condition did not hold. */
export const ChainRunStepStatus = Schema.Literal("running", "paused", "succeeded", "failed", "skipped", "cancelled")
export type ChainRunStepStatus = typeof ChainRunStepStatus.Type

/** One entry of a run's step log: one attempt of one step, with the workflow version it ran. */
export class ChainRunStep extends Model.Class<ChainRunStep>("ChainRunStep")({
  runId: ChainRunId,
  stepId: ChainStepId,
  /** From 1; a retried step has one entry per attempt. */
  attempt: Schema.Number.pipe(Schema.int(), Schema.positive()),
  workflowId: WorkflowId,
  /** The version that ran; null for a step skipped before its version was resolved. */
  workflowVersion: Schema.NullOr(WorkflowVersionNumber),
  status: ChainRunStepStatus,
  /** The workflow's input, after the step's input mapping. */
  input: JsonValue,
  /** The workflow's output; null unless the step succeeded. */
  output: JsonValue,
  error: Schema.NullOr(RunFailure),
  startedAt: Model.DateTimeInsertFromDate,
  finishedAt: NullableDateTimeField
}) {}
