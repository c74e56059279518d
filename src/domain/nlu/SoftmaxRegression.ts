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
 *
 * Classes are weighted (`balanced`): each epoch sees a class's examples
 * `round(mean / size)` times (at least once), where `mean` is the average
 * class size, so a class of 5 examples next to one of 2,000 weighs about
 * as much in the loss instead of being swallowed. Weighting by repetition
 * rather than by a factor on the gradient keeps every step as large as an
 * unweighted one (a factor of 400 on a learning rate of 3 would overshoot),
 * and an epoch costs at most about 1.5 times the examples. Equal classes
 * are seen once each, as without weighting.
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
  /** Weight classes by inverse frequency (see above). */
  readonly balanced: boolean
}

export const defaultSoftmaxOptions: SoftmaxOptions = {
  epochs: 12,
  learningRate: 1,
  decay: 0.3,
  l2: 1e-5,
  seed: 7,
  balanced: true
}

/** Each example's index, repeated as often as its class's weight asks (see above). */
export const epochOrder = (labels: ReadonlyArray<number>, classes: number, balanced: boolean): Array<number> => {
  const indices = labels.map((_, index) => index)
  if (!balanced || labels.length === 0) return indices
  const sizes = new Int32Array(classes)
  for (const label of labels) sizes[label]!++
  const present = sizes.reduce((count, size) => count + (size > 0 ? 1 : 0), 0)
  const mean = labels.length / present
  return indices.flatMap((index) => {
    const times = Math.max(1, Math.round(mean / sizes[labels[index]!]!))
    return times === 1 ? [index] : Array.from({ length: times }, () => index)
  })
}

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
  const order = epochOrder(labels, classes, options.balanced)
  // The step at which each feature's row last had its regularisation applied.
  const applied = new Int32Array(features)
  const scores = new Float64Array(classes)
  let epoch = 0
  let position = order.length
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
      if (position >= order.length) {
        if (epoch > 0) flush()
        if (epoch >= options.epochs || order.length === 0) return true
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
    return epoch >= options.epochs && position >= order.length && (flush(), true)
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
