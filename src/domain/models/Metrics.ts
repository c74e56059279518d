import { Schema } from "effect"
import { Count, ModelDatasetId, ModelLabel, UnitInterval } from "./Ids.js"

/** The rows a measurement was taken on: the held-out part of the training dataset, or a whole other dataset. */
export const EvaluationSplit = Schema.Union(
  Schema.Struct({
    source: Schema.Literal("held-out"),
    datasetId: ModelDatasetId,
    fraction: UnitInterval,
    seed: Schema.Number.pipe(Schema.int()),
    rows: Count
  }),
  Schema.Struct({ source: Schema.Literal("dataset"), datasetId: ModelDatasetId, rows: Count })
).annotations({ identifier: "EvaluationSplit" })
export type EvaluationSplit = typeof EvaluationSplit.Type

/** Precision, recall and F1 of one label, with its number of evaluation rows. */
export const LabelMetrics = Schema.Struct({
  label: ModelLabel,
  precision: UnitInterval,
  recall: UnitInterval,
  f1: UnitInterval,
  support: Count
}).annotations({ identifier: "LabelMetrics" })

/** One cell of the confusion matrix: rows of `expected` that the model called `predicted`. */
export const Confusion = Schema.Struct({ expected: ModelLabel, predicted: ModelLabel, count: Count }).annotations({
  identifier: "LabelConfusion"
})

/**
 * A summary of the confusion matrix: the most frequent mistakes, and the full
 * matrix (rows expected, columns predicted, in `labels` order) when there are
 * at most 50 labels.
 */
export const ConfusionSummary = Schema.Struct({
  topConfusions: Schema.Array(Confusion).pipe(Schema.maxItems(50)),
  labels: Schema.NullOr(Schema.Array(ModelLabel).pipe(Schema.maxItems(50))),
  matrix: Schema.NullOr(Schema.Array(Schema.Array(Count)).pipe(Schema.maxItems(50)))
}).annotations({ identifier: "ConfusionSummary" })

/** How well a classifier (intent router, guardrail classifier) does on an evaluation split. */
export const ClassificationMetrics = Schema.Struct({
  type: Schema.Literal("classification"),
  split: EvaluationSplit,
  accuracy: UnitInterval,
  macroF1: UnitInterval,
  weightedF1: UnitInterval,
  /** The share of rows answered "none of these" (below the out-of-scope threshold). */
  outOfScopeRate: UnitInterval,
  perLabel: Schema.Array(LabelMetrics).pipe(Schema.maxItems(1000)),
  confusion: ConfusionSummary
}).annotations({ identifier: "ClassificationMetrics" })
export type ClassificationMetrics = typeof ClassificationMetrics.Type

/** One point of a fine-tune's learning curve, as the provider reports it. */
export const TrainingStep = Schema.Struct({
  step: Count,
  trainLoss: Schema.NullOr(Schema.NonNegative),
  validLoss: Schema.NullOr(Schema.NonNegative),
  trainTokenAccuracy: Schema.NullOr(UnitInterval)
}).annotations({ identifier: "TrainingStep" })

/**
 * How a fine-tuned language model does: the provider's losses and token
 * accuracy on the validation split, the tokens trained, and the learning curve
 * (at most 500 points, thinned evenly).
 */
export const LanguageModelMetrics = Schema.Struct({
  type: Schema.Literal("language-model"),
  split: Schema.NullOr(EvaluationSplit),
  trainLoss: Schema.NullOr(Schema.NonNegative),
  validLoss: Schema.NullOr(Schema.NonNegative),
  validTokenAccuracy: Schema.NullOr(UnitInterval),
  trainedTokens: Schema.NullOr(Count),
  steps: Schema.Array(TrainingStep).pipe(Schema.maxItems(500))
}).annotations({ identifier: "LanguageModelMetrics" })
export type LanguageModelMetrics = typeof LanguageModelMetrics.Type

/** The metrics of a model or job, by the family of the model kind. */
export const ModelMetrics = Schema.Union(ClassificationMetrics, LanguageModelMetrics).annotations({
  identifier: "ModelMetrics"
})
export type ModelMetrics = typeof ModelMetrics.Type
