/**
 * TF-IDF over `TextFeatures`: a vocabulary fitted on the training texts
 * (features seen in at least `minCount` of them), sublinear term frequency
 * (1 + log count), smoothed inverse document frequency, and each vector
 * scaled to unit length, so long and short texts weigh alike. Features the
 * vocabulary does not know are dropped, but they still count towards the
 * length, so a text made mostly of unknown words reads as weakly like
 * anything it was trained on.
 *
 * The fitted vocabulary is an open-addressing table of typed arrays (feature
 * hash to number), so the bytes a vectorizer keeps are the bytes it counts.
 */
import type { SparseVector } from "./SparseVector.js"
import { countFeatures, defaultFeatureOptions, type FeatureOptions } from "./TextFeatures.js"

export interface Vectorizer {
  readonly size: number
  readonly vectorize: (text: string) => SparseVector
  /** The bytes its vocabulary and scratch space hold. */
  readonly bytes: number
}

export interface VectorizerOptions extends FeatureOptions {
  /** A feature is kept when at least this many training texts have it. */
  readonly minCount: number
}

export const defaultVectorizerOptions: VectorizerOptions = { ...defaultFeatureOptions, minCount: 1 }

/** A vocabulary being fitted: `add` each training text, then `build`. */
export interface VectorizerFitting {
  readonly add: (text: string) => void
  readonly build: () => Vectorizer
}

/** Starts fitting a vocabulary. Deterministic: features are numbered in order of first sight. */
export const fittingVectorizer = (options: VectorizerOptions = defaultVectorizerOptions): VectorizerFitting => {
  const documentCount = new Map<number, number>()
  let texts = 0
  const add = (text: string) => {
    texts++
    for (const feature of countFeatures(text, options).keys()) {
      documentCount.set(feature, (documentCount.get(feature) ?? 0) + 1)
    }
  }
  const build = (): Vectorizer => {
    const kept = [...documentCount].filter(([, count]) => count >= options.minCount)
    const index = featureTable(kept.map(([feature]) => feature))
    const idfs = Float64Array.from(kept, ([, count]) => Math.log((1 + texts) / (1 + count)) + 1)
    return vectorizer(index, idfs, Math.log(1 + texts) + 1, options)
  }
  return { add, build }
}

/** Fits the vocabulary and IDF on `texts` in one go. */
export const fitVectorizer = (
  texts: ReadonlyArray<string>,
  options: VectorizerOptions = defaultVectorizerOptions
): Vectorizer => {
  const fitting = fittingVectorizer(options)
  for (const text of texts) fitting.add(text)
  return fitting.build()
}

interface FeatureTable {
  /** The number of `feature`, or undefined when the vocabulary does not have it. */
  readonly get: (feature: number) => number | undefined
  readonly bytes: number
}

/** Numbers `features` in order, in a table of at least twice as many slots. */
const featureTable = (features: ReadonlyArray<number>): FeatureTable => {
  let slots = 2
  while (slots < features.length * 2) slots *= 2
  const mask = slots - 1
  const keys = new Int32Array(slots)
  const numbers = new Int32Array(slots).fill(-1)
  const slotOf = (feature: number) => {
    let slot = Math.imul(feature, 0x9e3779b1) & mask
    while (numbers[slot] !== -1 && keys[slot] !== feature) slot = (slot + 1) & mask
    return slot
  }
  features.forEach((feature, number) => {
    const slot = slotOf(feature | 0)
    keys[slot] = feature | 0
    numbers[slot] = number
  })
  return {
    get: (feature) => {
      const number = numbers[slotOf(feature | 0)]!
      return number === -1 ? undefined : number
    },
    bytes: keys.byteLength + numbers.byteLength
  }
}

/** `unknownIdf` is the weight an unknown feature has: as rare as can be. */
const vectorizer = (
  index: FeatureTable,
  idfs: Float64Array,
  unknownIdf: number,
  options: VectorizerOptions
): Vectorizer => {
  // Scratch space reused by every call (a call runs to its end before the next starts).
  const counts = new Map<number, number>()
  const weightAt = new Float64Array(idfs.length)
  let found = new Int32Array(64)
  const vectorize = (text: string): SparseVector => {
    counts.clear()
    countFeatures(text, options, counts)
    if (found.length < counts.size) found = new Int32Array(counts.size * 2)
    let known = 0
    let norm = 0
    for (const [feature, count] of counts) {
      const at = index.get(feature)
      const weight = (1 + Math.log(count)) * (at === undefined ? unknownIdf : idfs[at]!)
      norm += weight * weight
      if (at === undefined) continue
      found[known++] = at
      weightAt[at] = weight
    }
    const indices = found.slice(0, known).sort()
    const values = new Float32Array(known)
    const length = norm > 0 ? Math.sqrt(norm) : 1
    for (let k = 0; k < known; k++) {
      values[k] = weightAt[indices[k]!]! / length
      weightAt[indices[k]!] = 0
    }
    return { indices, values }
  }
  return {
    size: idfs.length,
    vectorize,
    bytes: index.bytes + idfs.byteLength + weightAt.byteLength + found.byteLength
  }
}
