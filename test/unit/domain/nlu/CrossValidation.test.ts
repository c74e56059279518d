import { describe, expect, it } from "@effect/vitest"
import { DateTime, Schema } from "effect"
import { NluMeasured } from "../../../../src/domain/assistants/NluReport.js"
import { crossValidation, insufficientData, MAX_FOLDS } from "../../../../src/domain/nlu/CrossValidation.js"
import type { TrainingIntent } from "../../../../src/domain/nlu/IntentModel.js"

const run = (intents: ReadonlyArray<TrainingIntent>) => {
  const validation = crossValidation(intents)
  let steps = 0
  while (!validation.step(500)) steps++
  return { ...validation.result(), steps }
}

// Two intents that share their words (the classifier must mix them up) and one apart.
const intents: ReadonlyArray<TrainingIntent> = [
  {
    name: "card_lost",
    utterances: [
      "I lost my card",
      "my card is lost",
      "lost card",
      "I cannot find my card",
      "card missing",
      "where is my card"
    ]
  },
  {
    name: "card_stolen",
    utterances: [
      "my card was stolen",
      "someone stole my card",
      "stolen card",
      "card theft",
      "thief took my card",
      "my card is gone"
    ]
  },
  {
    name: "weather",
    utterances: [
      "what is the weather",
      "will it rain today",
      "is it sunny",
      "weather forecast",
      "how hot is it",
      "temperature outside"
    ]
  }
]

describe("cross-validation", () => {
  it("tests every utterance once and gives per-intent figures and the confused pairs", () => {
    const result = run(intents)
    expect(result.folds).toBe(MAX_FOLDS)
    expect(result.steps).toBeGreaterThan(MAX_FOLDS)
    expect(result.intents.map((figures) => figures.intent)).toEqual(["card_lost", "card_stolen", "weather"])
    expect(result.intents.map((figures) => figures.support)).toEqual([6, 6, 6])
    for (const figures of result.intents) {
      for (const ratio of [figures.accuracy, figures.precision, figures.f1]) {
        expect(ratio).toBeGreaterThanOrEqual(0)
        expect(ratio).toBeLessThanOrEqual(1)
      }
    }
    const weather = result.intents.find((figures) => figures.intent === "weather")!
    expect(weather.accuracy).toBeGreaterThan(0.6)
    // Whatever the weather intent gets right, the two card intents share the rest of the mistakes.
    expect(result.confusions.length).toBeGreaterThan(0)
    expect(result.confusions.length).toBeLessThanOrEqual(20)
    const counts = result.confusions.map((pair) => pair.count)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    const cardPair = result.confusions.filter((pair) =>
      pair.expected.startsWith("card") && pair.predicted.startsWith("card")
    ).reduce((sum, pair) => sum + pair.count, 0)
    expect(cardPair).toBeGreaterThanOrEqual(result.confusions.reduce((sum, pair) => sum + pair.count, 0) / 2)
    for (const pair of result.confusions) expect(pair.rate).toBeCloseTo(pair.count / 6, 10)
    // Accuracy is the share of all utterances right; macro F1 the mean of the intents' F1.
    const right = result.intents.reduce((sum, figures) => sum + figures.accuracy * figures.support, 0)
    expect(result.accuracy).toBeCloseTo(right / 18, 10)
    expect(result.macroF1).toBeCloseTo(result.intents.reduce((sum, figures) => sum + figures.f1, 0) / 3, 10)
  })

  it("is deterministic and fits the NLU report schema", () => {
    const first = run(intents)
    const second = run(intents)
    expect(second).toEqual(first)
    const report = {
      status: "ready" as const,
      intentsRevision: 3,
      computedAt: DateTime.unsafeMake(0),
      classifier: "builtin" as const,
      folds: first.folds,
      accuracy: first.accuracy,
      macroF1: first.macroF1,
      intents: first.intents,
      confusions: first.confusions,
      threshold: first.threshold
    }
    expect(() =>
      Schema.encodeSync(NluMeasured)(
        Schema.decodeUnknownSync(NluMeasured)(Schema.encodeSync(NluMeasured)(report as never))
      )
    ).not.toThrow()
  })

  it("uses fewer folds when every intent has few utterances, and scores a lone utterance 0", () => {
    const result = run([
      { name: "yes", utterances: ["yes", "yes please", "sure"] },
      { name: "no", utterances: ["no", "no thanks", "nope"] },
      { name: "lonely", utterances: ["a single example"] }
    ])
    expect(result.folds).toBe(3)
    expect(result.intents.find((figures) => figures.intent === "lonely")).toMatchObject({ support: 1, accuracy: 0 })
  })

  it("says when there is too little to measure", () => {
    expect(insufficientData([])).toMatch(/two intents/)
    expect(insufficientData([{ name: "a", utterances: ["x", "y"] }, { name: "b", utterances: ["z"] }])).toBeDefined()
    expect(insufficientData([{ name: "a", utterances: ["x", "x"] }, { name: "b", utterances: ["z", "w"] }]))
      .toBeDefined()
    expect(insufficientData([{ name: "a", utterances: ["x", "y"] }, { name: "b", utterances: ["z", "w"] }]))
      .toBeUndefined()
  })
})
