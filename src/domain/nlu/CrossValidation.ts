/**
 * How well the built-in model tells an Assistant's intents apart, by k-fold
 * cross-validation over their example utterances: each intent's utterances
 * are shuffled (seeded) and dealt round the folds, each fold is classified by
 * a model trained on the others, and every utterance is tested once. A
 * prediction is the best-scoring intent, with no threshold, so the figures
 * say which intents read alike rather than how many messages a threshold
 * would turn away. An intent with a single utterance is tested on a model
 * that has never seen it, so it scores 0: the report's way of saying it
 * needs more examples.
 *
 * Each held-out utterance's reading is kept too (its best confidence, and
 * its best confidence among the other intents with its own unknown), from
 * which the Assistant's automatic out-of-scope threshold is chosen
 * (`OutOfScopeThreshold`).
 *
 * Runs in steps like training (`step(budget)`), so a caller can yield.
 */
import {
  defaultIntentModelOptions,
  type IntentModelOptions,
  type IntentTrainer,
  intentTrainer,
  type TrainingIntent
} from "./IntentModel.js"
import { chooseThreshold, DEFAULT_THRESHOLD, type HeldOutReading, type ThresholdChoice } from "./OutOfScopeThreshold.js"
import { seededRandom, shuffle } from "./Random.js"

export interface IntentFigures {
  readonly intent: string
  /** Recall: the share of its utterances classified as itself. */
  readonly accuracy: number
  readonly precision: number
  readonly f1: number
  readonly support: number
}

export interface Confusion {
  readonly expected: string
  readonly predicted: string
  readonly count: number
  /** `count` as a share of `expected`'s support. */
  readonly rate: number
}

export interface CrossValidationResult {
  readonly folds: number
  readonly accuracy: number
  readonly macroF1: number
  readonly intents: ReadonlyArray<IntentFigures>
  /** The most confused pairs, most utterances first (at most `MAX_CONFUSIONS`). */
  readonly confusions: ReadonlyArray<Confusion>
  /** The out-of-scope threshold these figures choose, with what they expect of it. */
  readonly threshold: ThresholdChoice
}

export const MAX_FOLDS = 5
export const MAX_CONFUSIONS = 20

/** Why there is nothing to cross-validate, or undefined when there is. */
export const insufficientData = (intents: ReadonlyArray<TrainingIntent>): string | undefined => {
  const usable = distinct(intents).filter((intent) => intent.utterances.length >= 2)
  return usable.length >= 2
    ? undefined
    : "Cross-validation needs at least two intents with at least two example utterances each"
}

const distinct = (intents: ReadonlyArray<TrainingIntent>): Array<TrainingIntent> =>
  intents
    .filter((intent, index) => intents.findIndex((other) => other.name === intent.name) === index)
    .map((intent) => ({
      name: intent.name,
      utterances: [...new Set(intent.utterances.filter((text) => text.trim().length > 0))]
    }))

export interface CrossValidation {
  readonly step: (budget: number) => boolean
  /** The figures; only once `step` has said done. */
  readonly result: () => CrossValidationResult
}

/** Starts cross-validating `intents` (check `insufficientData` first: with too little data the figures mean little). */
export const crossValidation = (
  input: ReadonlyArray<TrainingIntent>,
  options: IntentModelOptions = defaultIntentModelOptions
): CrossValidation => {
  const intents = distinct(input)
  // As many folds as the intents with two or more utterances allow (each then tested at least twice).
  const sizes = intents.map((intent) => intent.utterances.length).filter((size) => size >= 2)
  const folds = Math.max(2, Math.min(MAX_FOLDS, ...sizes))
  const random = seededRandom(options.softmax.seed)
  // fold of each utterance, intent by intent; each intent starts dealing where the last stopped, to balance folds.
  let dealer = 0
  const foldOf = intents.map((intent) =>
    shuffle(intent.utterances.map((_, index) => index), random).reduce<Array<number>>((assigned, index) => {
      assigned[index] = dealer++ % folds
      return assigned
    }, [])
  )
  const names = intents.map((intent) => intent.name)
  const confusion = names.map(() => new Int32Array(names.length))
  const tested = new Int32Array(names.length)
  const readings: Array<HeldOutReading> = []
  let fold = 0
  let trainer: IntentTrainer | undefined
  let result: CrossValidationResult | undefined

  const trainingSet = (held: number): Array<TrainingIntent> =>
    intents.map((intent, i) => ({
      name: intent.name,
      utterances: intent.utterances.filter((_, u) => foldOf[i]![u] !== held)
    }))

  const test = (held: number) => {
    const model = trainer!.model()
    intents.forEach((intent, i) => {
      intent.utterances.forEach((text, u) => {
        if (foldOf[i]![u] !== held) return
        tested[i]!++
        // A text no intent scores above 0 (say, only punctuation) is placed nowhere: tested, never right.
        const [best] = model.read(text)
        if (best !== undefined && best.confidence > 0) confusion[i]![names.indexOf(best.intent)]!++
        readings.push({
          confidence: best?.confidence ?? 0,
          right: best !== undefined && best.confidence > 0 && best.intent === intent.name,
          unknownConfidence: model.readWithout(text, intent.name)[0]?.confidence ?? 0
        })
      })
    })
  }

  const step = (budget: number): boolean => {
    if (result !== undefined) return true
    if (fold < folds) {
      trainer ??= intentTrainer(trainingSet(fold), options)
      if (!trainer.step(budget)) return false
      test(fold)
      trainer = undefined
      fold++
      return false
    }
    result = { ...summarise(names, confusion, tested, folds), threshold: chooseThreshold(readings) }
    return true
  }
  return {
    step,
    result: () => {
      if (result === undefined) throw new Error("The cross-validation is still running")
      return result
    }
  }
}

/**
 * The automatic out-of-scope threshold of `intents` in one go: their
 * cross-validation's choice, or `DEFAULT_THRESHOLD` when there is too little
 * to cross-validate.
 */
export const automaticThreshold = (
  intents: ReadonlyArray<TrainingIntent>,
  options: IntentModelOptions = defaultIntentModelOptions
): number => crossValidated(intents, options)?.threshold.value ?? DEFAULT_THRESHOLD

/** The intents' cross-validation run to its end at once, or undefined when there is too little to measure. */
export const crossValidated = (
  intents: ReadonlyArray<TrainingIntent>,
  options: IntentModelOptions = defaultIntentModelOptions
): CrossValidationResult | undefined => {
  if (insufficientData(intents) !== undefined) return undefined
  const validation = crossValidation(intents, options)
  while (!validation.step(4096)) { /* keep going */ }
  return validation.result()
}

const summarise = (
  names: ReadonlyArray<string>,
  confusion: ReadonlyArray<Int32Array>,
  support: Int32Array,
  folds: number
): Omit<CrossValidationResult, "threshold"> => {
  const predictedAs = names.map((_, j) => confusion.reduce((sum, row) => sum + row[j]!, 0))
  const intents = names.map((intent, i) => {
    const right = confusion[i]![i]!
    const accuracy = support[i]! === 0 ? 0 : right / support[i]!
    const precision = predictedAs[i]! === 0 ? 0 : right / predictedAs[i]!
    const f1 = accuracy + precision === 0 ? 0 : (2 * accuracy * precision) / (accuracy + precision)
    return { intent, accuracy, precision, f1, support: support[i]! }
  })
  const tested = support.reduce((sum, count) => sum + count, 0)
  const right = names.reduce((sum, _, i) => sum + confusion[i]![i]!, 0)
  const confusions = names
    .flatMap((expected, i) =>
      names.flatMap((predicted, j) =>
        i !== j && confusion[i]![j]! > 0
          ? [{ expected, predicted, count: confusion[i]![j]!, rate: confusion[i]![j]! / support[i]! }]
          : []
      )
    )
    .sort((a, b) => b.count - a.count || b.rate - a.rate)
    .slice(0, MAX_CONFUSIONS)
  return {
    folds,
    accuracy: tested === 0 ? 0 : right / tested,
    macroF1: intents.length === 0 ? 0 : intents.reduce((sum, intent) => sum + intent.f1, 0) / intents.length,
    intents,
    confusions
  }
}
