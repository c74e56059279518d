/**
 * TF-IDF over `TextFeatures`: a vocabulary fitted on the training texts
 * (features seen in at least `minCount` of them), sublinear term frequency
 * (1 + log count), smoothed inverse document frequency, and each vector
 * scaled to unit length, so long and short texts weigh alike. Features the
 * vocabulary does not know are dropped, but they still count towards the
 * length, so a text made mostly of unknown words reads as weakly like
 * anything it was trained on.
 */
import type { SparseVector } from "./SparseVector.js"
import { countFeatures, defaultFeatureOptions, type FeatureOptions } from "./TextFeatures.js"

export interface Vectorizer {
  readonly size: number
  readonly vectorize: (text: string) => SparseVector
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
    const index = new Map<number, number>()
    const idfs: Array<number> = []
    for (const [feature, count] of documentCount) {
      if (count < options.minCount) continue
      index.set(feature, idfs.length)
      idfs.push(Math.log((1 + texts) / (1 + count)) + 1)
    }
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

/** `unknownIdf` is the weight an unknown feature has: as rare as can be. */
const vectorizer = (
  index: ReadonlyMap<number, number>,
  idfs: ReadonlyArray<number>,
  unknownIdf: number,
  options: VectorizerOptions
): Vectorizer => {
  const vectorize = (text: string): SparseVector => {
    const entries: Array<[number, number]> = []
    let norm = 0
    for (const [feature, count] of countFeatures(text, options)) {
      const at = index.get(feature)
      const weight = (1 + Math.log(count)) * (at === undefined ? unknownIdf : idfs[at]!)
      norm += weight * weight
      if (at !== undefined) entries.push([at, weight])
    }
    entries.sort((a, b) => a[0] - b[0])
    const length = norm > 0 ? Math.sqrt(norm) : 1
    return {
      indices: Int32Array.from(entries, ([at]) => at),
      values: Float32Array.from(entries, ([, weight]) => weight / length)
    }
  }
  return { size: idfs.length, vectorize }
}
