/**
 * Scoring a classifier on a labelled split, the way CLINC150's paper does:
 * a message is answered as its best intent when that intent's confidence
 * reaches the threshold, else as out of scope. In-scope accuracy counts an
 * in-scope message right only when answered as its own intent; out-of-scope
 * recall is the share of out-of-scope messages not answered as any intent.
 */
import { Effect } from "effect"
import type { Classifier } from "../../src/domain/runtime/engine/Classifier.js"
import type { Example } from "./Corpus.js"

/**
 * A message's best intent and confidence, and how long classifying it took
 * (ms): wall-clock, and the process's CPU time (user + system), which a busy
 * machine's scheduler does not inflate (garbage collection on the main
 * thread still counts).
 */
export interface Prediction {
  readonly expected: string
  readonly predicted: string
  readonly confidence: number
  readonly milliseconds: number
  readonly cpuMilliseconds: number
}

export const predict = (
  classifier: Classifier,
  intents: ReadonlyArray<string>,
  examples: ReadonlyArray<Example>
): Array<Prediction> =>
  examples.map(({ intent, text }) => {
    const cpu = process.cpuUsage()
    const started = performance.now()
    const ranking = Effect.runSync(classifier.classify(text, intents))
    const milliseconds = performance.now() - started
    const used = process.cpuUsage(cpu)
    return {
      expected: intent,
      predicted: ranking[0]?.intent ?? "",
      confidence: ranking[0]?.confidence ?? 0,
      milliseconds,
      cpuMilliseconds: (used.user + used.system) / 1000
    }
  })

export const inScopeAccuracy = (predictions: ReadonlyArray<Prediction>, threshold: number): number =>
  predictions.filter((p) => p.confidence >= threshold && p.confidence > 0 && p.predicted === p.expected).length /
  Math.max(1, predictions.length)

export const outOfScopeRecall = (predictions: ReadonlyArray<Prediction>, threshold: number): number =>
  predictions.filter((p) => p.confidence < threshold || p.confidence === 0).length / Math.max(1, predictions.length)

/**
 * The threshold (a multiple of 0.005) that answers the most validation
 * messages right, in-scope and out-of-scope together; the lowest on ties.
 */
export const tuneThreshold = (inScope: ReadonlyArray<Prediction>, outOfScope: ReadonlyArray<Prediction>): number => {
  let best = 0
  let bestRight = -1
  for (let step = 0; step <= 200; step++) {
    const threshold = step / 200
    const right = inScopeAccuracy(inScope, threshold) * inScope.length +
      outOfScopeRecall(outOfScope, threshold) * outOfScope.length
    if (right > bestRight) {
      bestRight = right
      best = threshold
    }
  }
  return best
}

export const percentile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}
