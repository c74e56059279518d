/**
 * Few-shot figures: a bot with only `shots` examples per intent, sampled
 * (seeded) from a corpus's training split, evaluated on its test split at
 * the automatic threshold (`automaticThreshold`: chosen from the sample's
 * own cross-validation, as an Assistant with no `nluThreshold` gets it), with
 * no threshold and at the former default 0.5. CLINC150 also gives the
 * out-of-scope recall on `oos_test`.
 */
import { crossValidation } from "../../src/domain/nlu/CrossValidation.js"
import { intentClassifier } from "../../src/domain/nlu/IntentClassifier.js"
import { type TrainingIntent, trainIntentModel } from "../../src/domain/nlu/IntentModel.js"
import { seededRandom, shuffle } from "../../src/domain/nlu/Random.js"
import type { Example } from "./Corpus.js"
import { inScopeAccuracy, outOfScopeRecall, predict } from "./Evaluation.js"

/** The sampling seed: the figures are for one fixed sample. */
export const SAMPLE_SEED = 11

/** `shots` utterances of each intent, drawn without replacement (seeded). */
export const sampleShots = (intents: ReadonlyArray<TrainingIntent>, shots: number): Array<TrainingIntent> => {
  const random = seededRandom(SAMPLE_SEED)
  return intents.map((intent) => ({
    name: intent.name,
    utterances: shuffle([...intent.utterances], random).slice(0, shots)
  }))
}

export interface FewShotFigures {
  readonly threshold: number
  /** Cross-validated (on the sample) at the threshold: in-scope accuracy, and the out-of-scope proxy's recall. */
  readonly expectedAccuracy: number
  readonly expectedRecall: number
  readonly accuracyAt: number
  readonly accuracyNone: number
  readonly accuracyAtHalf: number
  /** Undefined when the corpus has no out-of-scope test split. */
  readonly recallAt: number | undefined
  readonly recallAtHalf: number | undefined
  readonly seconds: number
}

export const fewShot = (
  intents: ReadonlyArray<TrainingIntent>,
  shots: number,
  test: ReadonlyArray<Example>,
  oosTest?: ReadonlyArray<Example>
): FewShotFigures => {
  const started = performance.now()
  const sample = sampleShots(intents, shots)
  const model = trainIntentModel(sample)
  const validation = crossValidation(sample)
  while (!validation.step(4096)) { /* to the end */ }
  const { threshold } = validation.result()
  const seconds = (performance.now() - started) / 1000
  const names = sample.map((intent) => intent.name)
  const classifier = intentClassifier(model)
  const inScope = predict(classifier, names, test)
  const outOfScope = oosTest === undefined ? undefined : predict(classifier, names, oosTest)
  return {
    threshold: threshold.value,
    expectedAccuracy: threshold.inScopeAccuracy,
    expectedRecall: threshold.outOfScopeRecall,
    accuracyAt: inScopeAccuracy(inScope, threshold.value),
    accuracyNone: inScopeAccuracy(inScope, 0),
    accuracyAtHalf: inScopeAccuracy(inScope, 0.5),
    recallAt: outOfScope && outOfScopeRecall(outOfScope, threshold.value),
    recallAtHalf: outOfScope && outOfScopeRecall(outOfScope, 0.5),
    seconds
  }
}
