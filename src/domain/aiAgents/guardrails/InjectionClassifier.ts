/**
 * The learned half of the `jailbreak` and `prompt-injection` rules: a logistic
 * regression over a text's hashed features, trained offline on public
 * jailbreak and prompt-injection prompts against ordinary ones
 * (`scripts/trainInjectionClassifier.ts`; the data, its licences and the
 * figures are in docs/AI-AGENTS.md). Nothing is learned at run time: the
 * weights ship in `InjectionModel.generated.ts`, so a text's probability is
 * the same on every node and in every release until the model is retrained.
 *
 * A text is read as the intent classifier reads it (`TextFeatures`: words,
 * pairs of words, character n-grams of each word), each feature weighing
 * `1 + log count`, the whole scaled to unit length so long prompts and short
 * ones weigh alike; a feature counts in the bucket its hash falls in (the
 * low `bits` bits), so the model is one weight per bucket and needs no
 * vocabulary. Scoring allocates one reused map and costs the text's features.
 *
 * Sensitivity sets the probability a text must reach: `low` only the
 * confident ones, `high` more eagerly (the thresholds ship with the model,
 * checked by the trainer against the false alarms they raise on a validation
 * split of ordinary prompts).
 */
import { countFeatures, type FeatureOptions } from "../../nlu/TextFeatures.js"
import { INJECTION_MODEL } from "./InjectionModel.generated.js"
import type { Sensitivity } from "./InjectionPatterns.js"

/** A binary logistic regression over hashed features. */
export interface InjectionModel {
  readonly features: FeatureOptions
  /** The number of hash bits: `2 ** bits` weights. */
  readonly bits: number
  readonly bias: number
  readonly weights: Float32Array
  /** The least probability that counts as an attack, by sensitivity. */
  readonly thresholds: Readonly<Record<Sensitivity, number>>
}

/** The model as the generated module stores it: weights as little-endian int16 in base64, times `scale`. */
export interface EncodedInjectionModel {
  readonly features: FeatureOptions
  readonly bits: number
  readonly bias: number
  readonly scale: number
  readonly weights: string
  readonly thresholds: Readonly<Record<Sensitivity, number>>
}

/** Reads a generated model. */
export const decodeInjectionModel = (encoded: EncodedInjectionModel): InjectionModel => {
  const bytes = Buffer.from(encoded.weights, "base64")
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const weights = new Float32Array(2 ** encoded.bits)
  if (bytes.byteLength !== weights.length * 2) throw new Error("injection model: weights do not match its bits")
  for (let index = 0; index < weights.length; index++) weights[index] = view.getInt16(index * 2, true) * encoded.scale
  return { ...encoded, weights }
}

/** Writes a model as the generated module stores it (weights rounded to 16 bits). */
export const encodeInjectionModel = (model: InjectionModel): EncodedInjectionModel => {
  let largest = 0
  for (const weight of model.weights) largest = Math.max(largest, Math.abs(weight))
  const scale = largest === 0 ? 1 : largest / 32_767
  const bytes = Buffer.alloc(model.weights.length * 2)
  model.weights.forEach((weight, index) => bytes.writeInt16LE(Math.round(weight / scale), index * 2))
  return {
    features: model.features,
    bits: model.bits,
    bias: model.bias,
    scale,
    weights: bytes.toString("base64"),
    thresholds: model.thresholds
  }
}

/**
 * Calls `visit` with each bucket of `text` and its value (a bucket may come
 * more than once: values add up), after scaling to unit length.
 */
export const visitInjectionFeatures = (
  text: string,
  features: FeatureOptions,
  bits: number,
  visit: (bucket: number, value: number) => void,
  scratch: Map<number, number> = new Map()
): void => {
  scratch.clear()
  countFeatures(text, features, scratch)
  let norm = 0
  for (const count of scratch.values()) {
    const value = 1 + Math.log(count)
    norm += value * value
  }
  if (norm === 0) return
  const length = Math.sqrt(norm)
  const mask = 2 ** bits - 1
  for (const [feature, count] of scratch) visit(feature & mask, (1 + Math.log(count)) / length)
}

/** The probability `model` gives `text` of being a jailbreak or an injection. */
export const injectionScorer = (model: InjectionModel): (text: string) => number => {
  const scratch = new Map<number, number>()
  let sum = 0
  const add = (bucket: number, value: number) => {
    sum += value * model.weights[bucket]!
  }
  return (text) => {
    sum = model.bias
    visitInjectionFeatures(text, model.features, model.bits, add, scratch)
    return 1 / (1 + Math.exp(-sum))
  }
}

/** The shipped model. */
export const shippedInjectionModel: InjectionModel = decodeInjectionModel(INJECTION_MODEL)

/** The probability the shipped model gives `text` of being a jailbreak or a prompt injection. */
export const injectionProbability: (text: string) => number = injectionScorer(shippedInjectionModel)

/** The probability, when the shipped model counts `text` as an attack at `sensitivity`; else undefined. */
export const injectionClassified = (sensitivity: Sensitivity, text: string): number | undefined => {
  const probability = injectionProbability(text)
  return probability >= shippedInjectionModel.thresholds[sensitivity] ? probability : undefined
}
