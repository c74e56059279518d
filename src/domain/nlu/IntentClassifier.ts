/**
 * The engine's `Classifier` answered by an `IntentModel`: the default one
 * every compiled flow uses (see `compile`), unless the program is given
 * another (a model trained in the background, or one for a deployment's
 * snapshot of the intents).
 */
import { Effect } from "effect"
import { type Classifier, roundConfidence } from "../runtime/engine/Classifier.js"
import { type IntentModel, type TrainingIntent, trainIntentModel } from "./IntentModel.js"

/** Classifies with `model`; confidences rounded as the engine reports them. */
export const intentClassifier = (model: IntentModel): Classifier => ({
  classify: (text, among) =>
    Effect.sync(() =>
      model.read(text, among).map(({ confidence, intent }) => ({ intent, confidence: roundConfidence(confidence) }))
    )
})

/**
 * A classifier that trains on `intents` when it first classifies (so
 * compiling a flow costs nothing until an intent router reads a message).
 */
export const lazyIntentClassifier = (intents: ReadonlyArray<TrainingIntent>): Classifier => {
  let model: IntentModel | undefined
  return {
    classify: (text, among) =>
      Effect.suspend(() => intentClassifier(model ??= trainIntentModel(intents)).classify(text, among))
  }
}
