import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { roundConfidence } from "../../../../../src/domain/runtime/engine/Classifier.js"
import { makeTokenClassifier } from "../../../../../src/domain/runtime/engine/TokenClassifier.js"
import { normalise, tokens } from "../../../../../src/domain/runtime/engine/Tokens.js"

const classifier = makeTokenClassifier([
  { name: "order", utterances: ["I want to order a pizza", "order food"] },
  { name: "refund", utterances: ["I want my money back", "refund my order"] },
  { name: "order", utterances: ["ignored: a repeated name keeps its first examples"] }
])

describe("tokens", () => {
  it("ignores case, accents and punctuation", () => {
    expect(normalise("Café CRÈME")).toBe("cafe creme")
    expect(tokens("  Hello, WORLD!! it's  café-time ")).toEqual(["hello", "world", "it", "s", "cafe", "time"])
    expect(tokens("?!")).toEqual([])
  })
})

describe("TokenClassifier", () => {
  it.effect("scores an example typed back 1, and ranks best first", () =>
    Effect.gen(function*() {
      const ranking = yield* classifier.classify("Refund my order!", ["order", "refund"])
      expect(ranking[0]).toEqual({ intent: "refund", confidence: 1 })
      expect(ranking[1]!.confidence).toBeLessThan(1)
    }))

  it.effect("scores 0 for a text that shares nothing, an empty text, and unknown intents", () =>
    Effect.gen(function*() {
      expect(yield* classifier.classify("xyzzy", ["order", "refund"])).toEqual([
        { intent: "order", confidence: 0 },
        { intent: "refund", confidence: 0 }
      ])
      expect(yield* classifier.classify("", ["refund"])).toEqual([{ intent: "refund", confidence: 0 }])
      expect(yield* classifier.classify("refund my order", ["nobody", "refund"])).toEqual([
        { intent: "refund", confidence: 1 },
        { intent: "nobody", confidence: 0 }
      ])
    }))

  it.effect("keeps the order of `among` for ties", () =>
    Effect.gen(function*() {
      const ranking = yield* classifier.classify("xyzzy", ["refund", "order"])
      expect(ranking.map((score) => score.intent)).toEqual(["refund", "order"])
    }))

  it.effect("learns nothing from a repeated intent name's second examples", () =>
    Effect.gen(function*() {
      const [score] = yield* classifier.classify("ignored: a repeated name keeps its first examples", ["order"])
      expect(score!.confidence).toBeLessThan(0.5)
    }))

  it.effect("classifies without examples at all", () =>
    Effect.gen(function*() {
      expect(yield* makeTokenClassifier([]).classify("hello", ["greet"])).toEqual([{ intent: "greet", confidence: 0 }])
    }))

  it("rounds confidences into [0, 1]", () => {
    expect(roundConfidence(0.123456)).toBe(0.1235)
    expect(roundConfidence(1.0000001)).toBe(1)
    expect(roundConfidence(-0.5)).toBe(0)
    expect(roundConfidence(Number.NaN)).toBe(0)
  })
})
