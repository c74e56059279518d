/**
 * Multinomial logistic regression over sparse vectors, trained by plain
 * stochastic gradient descent with L2 regularisation: a deterministic
 * shuffle per epoch (seeded), a learning rate that decays per epoch, and the
 * regularisation applied lazily (a feature's row of weights shrinks by the
 * steps it missed when next touched, and all rows at each epoch's end), so a
 * step costs its text's features times the classes, not the whole model.
 *
 * Weights are one `Float32Array`, a row of `classes` per feature, so scoring
 * a text reads a few contiguous rows. Training is a `SoftmaxTrainer` that
 * advances by `step(budget)` examples at a time, so a caller can yield
 * between steps; `trainSoftmax` runs it to the end.
 */
import { seededRandom, shuffle } from "./Random.js"
import type { SparseVector } from "./SparseVector.js"

export interface SoftmaxOptions {
  readonly epochs: number
  /** The first epoch's learning rate; epoch `e` uses `learningRate / (1 + decay * e)`. */
  readonly learningRate: number
  readonly decay: number
  /** The L2 penalty per example. */
  readonly l2: number
  readonly seed: number
}

export const defaultSoftmaxOptions: SoftmaxOptions = { epochs: 12, learningRate: 1, decay: 0.3, l2: 1e-5, seed: 7 }

/** A trained model: the weights, a row per feature, and a bias per class. */
export interface SoftmaxModel {
  readonly classes: number
  readonly features: number
  readonly weights: Float32Array
  readonly bias: Float64Array
}

/** The class probabilities of `vector` (written into `into` when given). */
export const probabilities = (model: SoftmaxModel, vector: SparseVector, into?: Float64Array): Float64Array => {
  const { bias, classes, weights } = model
  const scores = into ?? new Float64Array(classes)
  scores.set(bias)
  for (let k = 0; k < vector.indices.length; k++) {
    const row = vector.indices[k]! * classes
    const value = vector.values[k]!
    for (let c = 0; c < classes; c++) scores[c]! += value * weights[row + c]!
  }
  return softmaxInPlace(scores)
}

const softmaxInPlace = (scores: Float64Array): Float64Array => {
  let max = -Infinity
  for (let c = 0; c < scores.length; c++) if (scores[c]! > max) max = scores[c]!
  let sum = 0
  for (let c = 0; c < scores.length; c++) {
    const e = Math.exp(scores[c]! - max)
    scores[c] = e
    sum += e
  }
  for (let c = 0; c < scores.length; c++) scores[c]! /= sum
  return scores
}

/** Training in progress: `step` runs up to `budget` examples and says whether training is done. */
export interface SoftmaxTrainer {
  readonly step: (budget: number) => boolean
  readonly model: SoftmaxModel
}

/** Starts training on `vectors` labelled `labels` (class numbers below `classes`). */
export const softmaxTrainer = (
  vectors: ReadonlyArray<SparseVector>,
  labels: ReadonlyArray<number>,
  classes: number,
  features: number,
  options: SoftmaxOptions = defaultSoftmaxOptions
): SoftmaxTrainer => {
  const weights = new Float32Array(features * classes)
  const bias = new Float64Array(classes)
  const model: SoftmaxModel = { classes, features, weights, bias }
  const random = seededRandom(options.seed)
  const order = vectors.map((_, index) => index)
  // The step at which each feature's row last had its regularisation applied.
  const applied = new Int32Array(features)
  const scores = new Float64Array(classes)
  let epoch = 0
  let position = vectors.length
  let time = 0
  let rate = options.learningRate
  let shrink = 1 - rate * options.l2
  const logShrink = () => Math.log(shrink)

  const flush = () => {
    const log = logShrink()
    for (let feature = 0; feature < features; feature++) {
      const missed = time - applied[feature]!
      if (missed === 0) continue
      const factor = Math.exp(log * missed)
      const row = feature * classes
      for (let c = 0; c < classes; c++) weights[row + c]! *= factor
      applied[feature] = time
    }
  }

  const learn = (vector: SparseVector, label: number) => {
    const log = logShrink()
    scores.set(bias)
    for (let k = 0; k < vector.indices.length; k++) {
      const feature = vector.indices[k]!
      const row = feature * classes
      const missed = time - applied[feature]!
      if (missed > 0) {
        const factor = Math.exp(log * missed)
        for (let c = 0; c < classes; c++) weights[row + c]! *= factor
        applied[feature] = time
      }
      const value = vector.values[k]!
      for (let c = 0; c < classes; c++) scores[c]! += value * weights[row + c]!
    }
    softmaxInPlace(scores)
    scores[label]! -= 1
    for (let c = 0; c < classes; c++) {
      scores[c]! *= rate
      bias[c]! -= scores[c]!
    }
    for (let k = 0; k < vector.indices.length; k++) {
      const row = vector.indices[k]! * classes
      const value = vector.values[k]!
      for (let c = 0; c < classes; c++) weights[row + c]! -= value * scores[c]!
    }
    time++
  }

  const step = (budget: number): boolean => {
    let left = budget
    while (left > 0) {
      if (position >= vectors.length) {
        if (epoch > 0) flush()
        if (epoch >= options.epochs || vectors.length === 0) return true
        rate = options.learningRate / (1 + options.decay * epoch)
        shrink = 1 - rate * options.l2
        shuffle(order, random)
        position = 0
        epoch++
      }
      const index = order[position++]!
      learn(vectors[index]!, labels[index]!)
      left--
    }
    return epoch >= options.epochs && position >= vectors.length && (flush(), true)
  }
  return { step, model }
}

/** Trains to the end in one go. */
export const trainSoftmax = (
  vectors: ReadonlyArray<SparseVector>,
  labels: ReadonlyArray<number>,
  classes: number,
  features: number,
  options: SoftmaxOptions = defaultSoftmaxOptions
): SoftmaxModel => {
  const trainer = softmaxTrainer(vectors, labels, classes, features, options)
  while (!trainer.step(1024)) { /* keep going */ }
  return trainer.model
}
