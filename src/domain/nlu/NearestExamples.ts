/**
 * For each intent, the cosine similarity of a text to the intent's nearest
 * example, answered from an inverted index: for each feature, the examples
 * that have it (numbered intent by intent, so one intent's examples are a
 * contiguous run found by binary search) and its weight there. Asking about
 * a few intents costs the text's features times their examples that share
 * each feature, not a pass over every example.
 */
import type { SparseVector } from "./SparseVector.js"

export interface NearestExamples {
  /** The similarity of `vector` to the nearest example of intent `label` (0 when none shares a feature). */
  readonly similarity: (vector: SparseVector, label: number) => number
  /** The bytes its index holds. */
  readonly bytes: number
}

/** Indexes `vectors`, the examples, labelled `labels` (intent numbers below `intents`). */
export const nearestExamples = (
  vectors: ReadonlyArray<SparseVector>,
  labels: ReadonlyArray<number>,
  intents: number,
  features: number
): NearestExamples => {
  // Number the examples intent by intent.
  const order = vectors.map((_, index) => index).sort((a, b) => labels[a]! - labels[b]! || a - b)
  const first = new Int32Array(intents + 1)
  for (const index of order) first[labels[index]! + 1]!++
  for (let label = 0; label < intents; label++) first[label + 1]! += first[label]!
  // Postings in CSR form: for feature f, entries start[f] .. start[f + 1].
  const start = new Int32Array(features + 1)
  for (const vector of vectors) for (const feature of vector.indices) start[feature + 1]!++
  for (let feature = 0; feature < features; feature++) start[feature + 1]! += start[feature]!
  const fill = start.slice(0, features)
  const example = new Int32Array(start[features]!)
  const weight = new Float32Array(start[features]!)
  order.forEach((index, number) => {
    const vector = vectors[index]!
    for (let k = 0; k < vector.indices.length; k++) {
      const at = fill[vector.indices[k]!]!++
      example[at] = number
      weight[at] = vector.values[k]!
    }
  })
  const lowerBound = (from: number, to: number, value: number) => {
    let low = from
    let high = to
    while (low < high) {
      const middle = (low + high) >>> 1
      if (example[middle]! < value) low = middle + 1
      else high = middle
    }
    return low
  }
  let sums = new Float64Array(0)
  const similarity = (vector: SparseVector, label: number): number => {
    if (label < 0 || label >= intents) return 0
    const from = first[label]!
    const count = first[label + 1]! - from
    if (count === 0) return 0
    if (sums.length < count) sums = new Float64Array(count)
    sums.fill(0, 0, count)
    for (let k = 0; k < vector.indices.length; k++) {
      const feature = vector.indices[k]!
      const end = start[feature + 1]!
      const value = vector.values[k]!
      for (let at = lowerBound(start[feature]!, end, from); at < end && example[at]! < from + count; at++) {
        sums[example[at]! - from]! += value * weight[at]!
      }
    }
    let best = 0
    for (let index = 0; index < count; index++) if (sums[index]! > best) best = sums[index]!
    return Math.min(1, best)
  }
  return { similarity, bytes: start.byteLength + example.byteLength + weight.byteLength + first.byteLength }
}
