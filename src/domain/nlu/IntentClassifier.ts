/**
 * The engine's `Classifier` answered by an `IntentModel`: the default one
 * every compiled flow uses (see `compile`), unless the program is given
 * another (a model trained in the background, or one for a deployment's
 * snapshot of the intents). Its `threshold` is the intents' automatic one
 * (`automaticThreshold`, from their cross-validation).
 */
import { Effect } from "effect"
import { type Classifier, roundConfidence } from "../runtime/engine/Classifier.js"
import { automaticThreshold } from "./CrossValidation.js"
import { type IntentModel, type TrainingIntent, trainIntentModel } from "./IntentModel.js"

/** Classifies with `model`, whose intents' automatic threshold is `threshold`; confidences rounded as the engine reports them. */
export const intentClassifier = (model: IntentModel, threshold?: number): Classifier => ({
  classify: (text, among) =>
    Effect.sync(() =>
      model.read(text, among).map(({ confidence, intent }) => ({ intent, confidence: roundConfidence(confidence) }))
    ),
  ...(threshold === undefined ? {} : { threshold: Effect.succeed(threshold) })
})

/**
 * A classifier that trains on `intents` when it first classifies (so
 * compiling a flow costs nothing until an intent router reads a message),
 * and cross-validates them when the automatic threshold is first needed.
 */
export const lazyIntentClassifier = (intents: ReadonlyArray<TrainingIntent>): Classifier => {
  let model: IntentModel | undefined
  let threshold: number | undefined
  return {
    classify: (text, among) =>
      Effect.suspend(() => intentClassifier(model ??= trainIntentModel(intents)).classify(text, among)),
    threshold: Effect.sync(() => threshold ??= automaticThreshold(intents))
  }
}
