/**
 * For each intent, the cosine similarity of a text to the intent's nearest
 * example, answered from an inverted index: for each feature, the examples
 * that have it (numbered intent by intent, so one intent's examples are a
 * contiguous run) and its weight there, and a hash table (open addressing,
 * typed arrays) from an (intent, feature) pair to where its run starts.
 * Asking about a few intents costs the text's features times their examples
 * that share each feature, not a pass over every example.
 *
 * The index is built in a function of its own and the lookup closes over
 * its typed arrays only: a closure keeps every variable its scope shares
 * with other closures alive, so building in the same scope kept the
 * training vectors (about as many bytes again) for as long as the model.
 */
import type { SparseVector } from "./SparseVector.js"

export interface NearestExamples {
  /** The similarity of `vector` to the nearest example of intent `label` (0 when none shares a feature). */
  readonly similarity: (vector: SparseVector, label: number) => number
  /** The bytes its index holds. */
  readonly bytes: number
}

interface Index {
  readonly intents: number
  readonly first: Int32Array
  readonly start: Int32Array
  readonly example: Int32Array
  readonly weight: Float32Array
  readonly slotFeature: Int32Array
  readonly slotIntent: Int32Array
  readonly slotStart: Int32Array
}

/** Indexes `vectors`, the examples, labelled `labels` (intent numbers below `intents`). */
export const nearestExamples = (
  vectors: ReadonlyArray<SparseVector>,
  labels: ReadonlyArray<number>,
  intents: number,
  features: number
): NearestExamples => lookup(buildIndex(vectors, labels, intents, features))

const slotOf = (index: Pick<Index, "slotFeature" | "slotIntent">, label: number, feature: number) => {
  const { slotFeature, slotIntent } = index
  const mask = slotFeature.length - 1
  let slot = (Math.imul(feature, 0x9e3779b1) ^ Math.imul(label + 1, 0x85ebca6b)) & mask
  while (slotFeature[slot] !== -1 && (slotFeature[slot] !== feature || slotIntent[slot] !== label)) {
    slot = (slot + 1) & mask
  }
  return slot
}

const buildIndex = (
  vectors: ReadonlyArray<SparseVector>,
  labels: ReadonlyArray<number>,
  intents: number,
  features: number
): Index => {
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
  // The runs: one per (intent, feature) pair, found in a table of twice as many slots as pairs.
  const intentOf = new Int32Array(order.length)
  for (let label = 0; label < intents; label++) intentOf.fill(label, first[label]!, first[label + 1]!)
  let pairs = 0
  for (let feature = 0; feature < features; feature++) {
    for (let at = start[feature]!; at < start[feature + 1]!; at++) {
      if (at === start[feature] || intentOf[example[at]!] !== intentOf[example[at - 1]!]) pairs++
    }
  }
  let slots = 2
  while (slots < pairs * 2) slots *= 2
  const slotFeature = new Int32Array(slots).fill(-1)
  const slotIntent = new Int32Array(slots)
  const slotStart = new Int32Array(slots)
  const table = { slotFeature, slotIntent }
  for (let feature = 0; feature < features; feature++) {
    for (let at = start[feature]!; at < start[feature + 1]!; at++) {
      const label = intentOf[example[at]!]!
      if (at !== start[feature] && label === intentOf[example[at - 1]!]) continue
      const slot = slotOf(table, label, feature)
      slotFeature[slot] = feature
      slotIntent[slot] = label
      slotStart[slot] = at
    }
  }
  return { intents, first, start, example, weight, slotFeature, slotIntent, slotStart }
}

const lookup = (index: Index): NearestExamples => {
  const { example, first, intents, slotFeature, slotStart, start, weight } = index
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
      const slot = slotOf(index, label, feature)
      if (slotFeature[slot] === -1) continue
      const end = start[feature + 1]!
      const value = vector.values[k]!
      for (let at = slotStart[slot]!; at < end && example[at]! < from + count; at++) {
        sums[example[at]! - from]! += value * weight[at]!
      }
    }
    let best = 0
    for (let index = 0; index < count; index++) if (sums[index]! > best) best = sums[index]!
    return Math.min(1, best)
  }
  const bytes = start.byteLength + example.byteLength + weight.byteLength + first.byteLength +
    slotFeature.byteLength + index.slotIntent.byteLength + slotStart.byteLength
  return { similarity, bytes }
}
