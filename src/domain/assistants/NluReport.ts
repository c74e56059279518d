/**
 * The NLU part of a flow analysis: how well the built-in classifier tells the
 * Assistant's intents apart, measured by k-fold cross-validation over their
 * example utterances. It is computed in the background and cached per
 * intents revision (the draft revision at which the intents last changed), so
 * reading the analysis never waits for it.
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { IntentName } from "./Intent.js"

const Ratio = Schema.Number.pipe(Schema.between(0, 1))
const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** How one intent scores: `accuracy` is its recall (its utterances classified as itself). */
export const IntentScore = Schema.Struct({
  intent: IntentName,
  accuracy: Ratio,
  precision: Ratio,
  f1: Ratio,
  /** How many of its utterances were tested. */
  support: Count
}).annotations({ identifier: "NluIntentScore" })

/** A pair of intents the classifier mixes up: utterances of `expected` classified as `predicted`. */
export const IntentConfusion = Schema.Struct({
  expected: IntentName,
  predicted: IntentName,
  count: Count,
  /** `count` as a share of `expected`'s support. */
  rate: Ratio
}).annotations({ identifier: "NluIntentConfusion" })

/**
 * The out-of-scope threshold an Assistant with no `nluThreshold` of its own
 * uses, chosen by the cross-validation: the highest that keeps 90% of the
 * right answers (see `OutOfScopeThreshold`), with what it expects.
 */
export const NluThresholdChoice = Schema.Struct({
  value: Ratio,
  /** Cross-validated in-scope accuracy at `value` (right and confident enough). */
  inScopeAccuracy: Ratio,
  /** Expected out-of-scope recall at `value`, by a conservative proxy: held-out utterances read with their own intent unknown. */
  outOfScopeRecall: Ratio
}).annotations({ identifier: "NluThresholdChoice" })

/** No result yet for the current intents: the first measurement is running. */
export const NluComputing = Schema.Struct({
  status: Schema.Literal("computing"),
  intentsRevision: Revision,
  startedAt: Schema.DateTimeUtc
}).annotations({ identifier: "NluComputing" })

/** Nothing to measure: fewer than two intents, or too few utterances to cross-validate. */
export const NluInsufficientData = Schema.Struct({
  status: Schema.Literal("insufficient-data"),
  intentsRevision: Revision,
  message: Schema.String
}).annotations({ identifier: "NluInsufficientData" })

/**
 * A measurement: `ready` for the current intents, or `stale` when the intents
 * changed since and a new measurement is running (these figures are for
 * `intentsRevision`).
 */
export const NluMeasured = Schema.Struct({
  status: Schema.Literal("ready", "stale"),
  intentsRevision: Revision,
  computedAt: Schema.DateTimeUtc,
  /** The classifier measured: the built-in one, or with the workspace's embeddings provider. */
  classifier: Schema.Literal("builtin", "embeddings"),
  folds: Schema.Number.pipe(Schema.int(), Schema.between(2, 20)),
  /** Overall cross-validated accuracy over every tested utterance. */
  accuracy: Ratio,
  macroF1: Ratio,
  intents: Schema.Array(IntentScore),
  /** The most confused pairs, worst first (at most 20). */
  confusions: Schema.Array(IntentConfusion).pipe(Schema.maxItems(20)),
  /** The automatic threshold (an explicit `nluThreshold`, or a router's `threshold`, wins over it). */
  threshold: NluThresholdChoice
}).annotations({ identifier: "NluMeasured" })

/** The NLU report of an Assistant's intents. */
export const NluReport = Schema.Union(NluComputing, NluInsufficientData, NluMeasured).annotations({
  identifier: "NluReport"
})
export type NluReport = typeof NluReport.Type
