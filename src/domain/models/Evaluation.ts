import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ModelDatasetId, TrainedModelId } from "./Ids.js"

/**
 * What to evaluate a trained model on: the held-out split of its training
 * dataset (the same rows its training job held back), or every row of another
 * dataset of the matching kind. Unknown fields are refused.
 */
export const EvaluateRequest = Schema.Union(
  Schema.Struct({ source: Schema.Literal("held-out") }),
  Schema.Struct({ source: Schema.Literal("dataset"), datasetId: ModelDatasetId }).annotations({})
).annotations({ identifier: "EvaluateRequest", parseOptions: { onExcessProperty: "error" } })
export type EvaluateRequest = typeof EvaluateRequest.Type

/** The model's training job held nothing out (`split.fraction` 0): evaluate it on another dataset. */
export class NoHeldOutSplit extends Schema.TaggedError<NoHeldOutSplit>()(
  "NoHeldOutSplit",
  { modelId: TrainedModelId, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
