import { describe, expect, it } from "@effect/vitest"
import { crossValidation } from "../../../../src/domain/nlu/CrossValidation.js"
import type { TrainingIntent } from "../../../../src/domain/nlu/IntentModel.js"
import {
  chooseThreshold,
  DEFAULT_THRESHOLD,
  expectedAt,
  type HeldOutReading
} from "../../../../src/domain/nlu/OutOfScopeThreshold.js"

const reading = (confidence: number, right: boolean, unknownConfidence = 0.1): HeldOutReading => ({
  confidence,
  right,
  unknownConfidence
})

describe("the automatic out-of-scope threshold", () => {
  it("is the highest step that keeps 90% of the right answers", () => {
    // Ten right answers at 0.31 .. 0.40 (the lowest is the 10% it may lose), two wrong ones.
    const readings = [
      ...Array.from({ length: 10 }, (_, i) => reading(0.31 + i / 100, true, 0.05 + i / 20)),
      reading(0.9, false),
      reading(0.2, false)
    ]
    const choice = chooseThreshold(readings)
    expect(choice.value).toBe(0.32)
    expect(choice.inScopeAccuracy).toBeCloseTo(9 / 12)
    // Proxies at 0.05, 0.10, ..., 0.50 (and 0.1 twice): those below 0.32 are refused.
    expect(choice.outOfScopeRecall).toBeCloseTo(8 / 12)
    expect(expectedAt(readings, 0).inScopeAccuracy).toBeCloseTo(10 / 12)
  })

  it("is high for a bot whose right answers are confident and low for one whose are faint", () => {
    // Twenty right answers each: 90% of them is the 18 most confident.
    const confident = chooseThreshold(Array.from({ length: 20 }, (_, i) => reading(0.7 + i / 100, true)))
    const faint = chooseThreshold(Array.from({ length: 20 }, (_, i) => reading(0.1 + i / 100, true)))
    expect(confident.value).toBe(0.72)
    expect(faint.value).toBe(0.12)
  })

  it("rounds down to a multiple of 0.005 and falls back to the default with no right answer", () => {
    expect(chooseThreshold([reading(0.4237, true)]).value).toBe(0.42)
    expect(chooseThreshold([reading(0.8, false), reading(0, true)]).value).toBe(DEFAULT_THRESHOLD)
  })

  it("comes out of a seeded cross-validation, the same every time", () => {
    const intents: ReadonlyArray<TrainingIntent> = [
      { name: "greet", utterances: ["hello", "hi there", "good morning", "hey you", "good evening", "hiya"] },
      { name: "bye", utterances: ["goodbye", "bye bye", "see you later", "good night", "farewell", "so long"] },
      {
        name: "refund",
        utterances: ["refund my order", "I want my money back", "give me a refund", "money back", "refund", "repay me"]
      }
    ]
    const run = () => {
      const validation = crossValidation(intents)
      while (!validation.step(500)) { /* keep going */ }
      return validation.result()
    }
    const first = run()
    expect(first.threshold).toEqual(run().threshold)
    expect(first.threshold.value).toBeGreaterThan(0)
    expect(first.threshold.value).toBeLessThan(1)
    expect(first.threshold.inScopeAccuracy).toBeGreaterThanOrEqual(0.9 * first.accuracy - 1e-9)
  })
})
