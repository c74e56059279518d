/**
 * Trains the injection classifier the `jailbreak` and `prompt-injection`
 * rules ship with, and writes it to
 * `src/domain/aiAgents/guardrails/InjectionModel.generated.ts`:
 *
 *   bash scripts/injection-data.sh /some/dir
 *   PARLEY_INJECTION_DATA=/some/dir npx tsx scripts/trainInjectionClassifier.ts
 *
 * It trains on the train split only (`bench/guardrails/InjectionData.ts`:
 * near-duplicates grouped, fixed seed) with the built-in NLU's logistic
 * regression (two classes, balanced, seeded), then picks each sensitivity's
 * threshold on the validation split: the least probability at which the
 * ordinary prompts there raise at most `FALSE_ALARMS[sensitivity]` false
 * alarms, and never below `FLOORS[sensitivity]` (the validation split has too
 * few ordinary prompts phrased like instructions to trust a rate alone: "what
 * are your instructions for returning an item?" scores about 0.55); with the
 * shipped data the floors decide (0.9, 0.7, 0.4 flag 0, 2 and 4 of the 2,281
 * ordinary validation prompts). The test split is left for
 * `bench/guardrails/injection.ts`. The same data gives the same file, byte for byte.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { dataDirectory, type Example, loadExamples, splitExamples } from "../bench/guardrails/InjectionData.js"
import {
  encodeInjectionModel,
  type InjectionModel,
  injectionScorer,
  visitInjectionFeatures
} from "../src/domain/aiAgents/guardrails/InjectionClassifier.js"
import type { Sensitivity } from "../src/domain/aiAgents/guardrails/InjectionPatterns.js"
import { defaultSoftmaxOptions, trainSoftmax } from "../src/domain/nlu/SoftmaxRegression.js"
import type { SparseVector } from "../src/domain/nlu/SparseVector.js"
import type { FeatureOptions } from "../src/domain/nlu/TextFeatures.js"

const BITS = 15
const FEATURES: FeatureOptions = { wordBigrams: true, charMin: 3, charMax: 5 }
/** The share of ordinary validation prompts each sensitivity may flag. */
const FALSE_ALARMS: Readonly<Record<Sensitivity, number>> = { low: 0.001, medium: 0.005, high: 0.02 }
/** The least threshold of each sensitivity. */
const FLOORS: Readonly<Record<Sensitivity, number>> = { low: 0.9, medium: 0.7, high: 0.4 }
const OUT = join(import.meta.dirname, "../src/domain/aiAgents/guardrails/InjectionModel.generated.ts")

const vectorOf = (text: string): SparseVector => {
  const values = new Map<number, number>()
  visitInjectionFeatures(text, FEATURES, BITS, (bucket, value) => values.set(bucket, (values.get(bucket) ?? 0) + value))
  const indices = Int32Array.from(values.keys()).sort()
  return { indices, values: Float32Array.from(indices, (index) => values.get(index)!) }
}

/** Trains on `train` and picks the thresholds on `validation`. */
const trainInjectionModel = (train: ReadonlyArray<Example>, validation: ReadonlyArray<Example>) => {
  const softmax = trainSoftmax(
    train.map((example) => vectorOf(example.text)),
    train.map((example) => example.label),
    2,
    2 ** BITS,
    { ...defaultSoftmaxOptions, epochs: 10 }
  )
  const weights = new Float32Array(2 ** BITS)
  for (let bucket = 0; bucket < weights.length; bucket++) {
    weights[bucket] = softmax.weights[bucket * 2 + 1]! - softmax.weights[bucket * 2]!
  }
  const unthresholded: InjectionModel = {
    features: FEATURES,
    bits: BITS,
    bias: softmax.bias[1]! - softmax.bias[0]!,
    weights,
    thresholds: { low: 0.5, medium: 0.5, high: 0.5 }
  }
  const score = injectionScorer(unthresholded)
  const ordinary = validation.filter((example) => example.label === 0).map((example) => score(example.text))
    .sort((a, b) => b - a)
  const thresholdFor = (sensitivity: Sensitivity) => {
    const allowed = Math.floor(FALSE_ALARMS[sensitivity] * ordinary.length)
    // Just above the (allowed + 1)-th highest ordinary score, so at most `allowed` reach it.
    const rated = Math.min(0.999, (ordinary[allowed] ?? 0) + 1e-6)
    return Number(Math.max(FLOORS[sensitivity], rated).toFixed(6))
  }
  const thresholds = { low: thresholdFor("low"), medium: thresholdFor("medium"), high: thresholdFor("high") }
  return { ...unthresholded, thresholds }
}

/** The generated module, laid out as the formatter would. */
const moduleText = (encoded: ReturnType<typeof encodeInjectionModel>, trainedOn: string): string =>
  [
    "/**",
    " * The injection classifier's learned parameters, written by",
    " * `scripts/trainInjectionClassifier.ts` (do not edit; retrain instead).",
    ` * Trained on the train split: ${trainedOn}; see docs/AI-AGENTS.md.`,
    " */",
    "import type { EncodedInjectionModel } from \"./InjectionClassifier.js\"",
    "",
    "export const INJECTION_MODEL: EncodedInjectionModel = {",
    `  features: { wordBigrams: ${encoded.features.wordBigrams}, charMin: ${encoded.features.charMin}, charMax: ${encoded.features.charMax} },`,
    `  bits: ${encoded.bits},`,
    `  bias: ${encoded.bias},`,
    `  scale: ${encoded.scale},`,
    `  thresholds: { low: ${encoded.thresholds.low}, medium: ${encoded.thresholds.medium}, high: ${encoded.thresholds.high} },`,
    "  weights: [",
    encoded.weights.match(/.{1,100}/g)!.map((chunk) => `    "${chunk}"`).join(",\n"),
    "  ].join(\"\")",
    "}",
    ""
  ].join("\n")

const main = () => {
  const dir = dataDirectory()
  const split = splitExamples(loadExamples(dir))
  const started = performance.now()
  const model = trainInjectionModel(split.train, split.validation)
  const encoded = encodeInjectionModel(model)
  const count = (examples: ReadonlyArray<Example>, label: 0 | 1) =>
    examples.filter((example) => example.label === label).length
  const trainedOn = `${count(split.train, 1)} attacks and ${count(split.train, 0)} ordinary prompts`
  writeFileSync(OUT, moduleText(encoded, trainedOn))
  console.log(
    `trained on ${trainedOn} in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `validation ${split.validation.length}, test ${split.test.length}, dropped ${split.dropped}; ` +
      `thresholds ${JSON.stringify(model.thresholds)}; wrote ${OUT}`
  )
}

main()
