import { describe, expect, it } from "@effect/vitest"
import { seededRandom } from "../../../../src/domain/nlu/Random.js"
import {
  defaultSoftmaxOptions,
  epochOrder,
  probabilities,
  type SoftmaxModel,
  trainSoftmax
} from "../../../../src/domain/nlu/SoftmaxRegression.js"
import type { SparseVector } from "../../../../src/domain/nlu/SparseVector.js"

const NOISE = 40
const DISTINCT = NOISE

/** Three noise features (shared by both classes), plus, for the small class, a faint feature of its own. */
const example = (random: () => number, small: boolean): SparseVector => {
  const noise = new Set<number>()
  while (noise.size < 3) noise.add(Math.floor(random() * NOISE))
  const indices = [...noise, ...(small ? [DISTINCT] : [])].sort((a, b) => a - b)
  const values = indices.map((feature) => (feature === DISTINCT ? 0.2 : 0.55))
  return { indices: Int32Array.from(indices), values: Float32Array.from(values) }
}

const random = seededRandom(3)
const big = Array.from({ length: 2000 }, () => example(random, false))
const small = Array.from({ length: 5 }, () => example(random, true))
const vectors = [...big, ...small]
const labels = vectors.map((_, index) => (index < big.length ? 0 : 1))

const predicted = (model: SoftmaxModel, vector: SparseVector) => {
  const p = probabilities(model, vector)
  return p[1]! > p[0]! ? 1 : 0
}

describe("SoftmaxRegression class weighting", () => {
  it("repeats a class's examples by its inverse frequency, equal classes once", () => {
    expect(epochOrder([0, 0, 0, 1, 1, 1], 2, true)).toEqual([0, 1, 2, 3, 4, 5])
    expect(epochOrder([0, 1, 1, 0, 2], 3, false)).toEqual([0, 1, 2, 3, 4])
    // Mean class size 4 (8 examples, 2 classes): the class of 2 twice, the class of 6 once.
    expect(epochOrder([0, 0, 0, 0, 0, 0, 1, 1], 2, true)).toEqual([0, 1, 2, 3, 4, 5, 6, 6, 7, 7])
    expect(epochOrder([0, 0, 0, 0, 0, 0, 1, 1], 2, false)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
  })

  it("predicts a 5-example class for its own examples next to a 2,000-example class", () => {
    const model = trainSoftmax(vectors, labels, 2, NOISE + 1, defaultSoftmaxOptions)
    expect(small.map((vector) => predicted(model, vector))).toEqual([1, 1, 1, 1, 1])
    const bigRight = big.filter((vector) => predicted(model, vector) === 0).length
    expect(bigRight / big.length).toBeGreaterThan(0.95)
  })

  it("without weighting, the large class swallows the small one", () => {
    const model = trainSoftmax(vectors, labels, 2, NOISE + 1, { ...defaultSoftmaxOptions, balanced: false })
    expect(small.map((vector) => predicted(model, vector))).toEqual([0, 0, 0, 0, 0])
  })
})
