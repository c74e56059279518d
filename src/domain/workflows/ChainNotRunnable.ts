import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ChainStepId, WorkflowId } from "./Ids.js"

/** Why a chain cannot start a run now. */
export const ChainProblemCode = Schema.Literal(
  /** The chain has no steps. */
  "no-steps",
  /** A step's workflow was deleted. */
  "workflow-missing",
  /** A step follows the live version of a workflow that has never been published. */
  "workflow-not-published",
  /** A step pins a version that does not exist. */
  "version-missing"
)
export type ChainProblemCode = typeof ChainProblemCode.Type

/** One reason a chain cannot run, at the step it concerns. */
export const ChainProblem = Schema.Struct({
  code: ChainProblemCode,
  message: Schema.String,
  stepId: Schema.optional(ChainStepId),
  workflowId: Schema.optional(WorkflowId)
}).annotations({ identifier: "ChainProblem" })
export type ChainProblem = typeof ChainProblem.Type

/** The run was refused before it started: every problem is listed, and no run exists. */
export class ChainNotRunnable extends Schema.TaggedError<ChainNotRunnable>()(
  "ChainNotRunnable",
  { slug: Schema.String, problems: Schema.Array(ChainProblem), message: Schema.String },
  HttpApiSchema.annotations({ status: 422 })
) {}
