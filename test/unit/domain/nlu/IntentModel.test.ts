import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { intentClassifier, lazyIntentClassifier } from "../../../../src/domain/nlu/IntentClassifier.js"
import { defaultIntentModelOptions, intentTrainer, trainIntentModel } from "../../../../src/domain/nlu/IntentModel.js"
import { countFeatures } from "../../../../src/domain/nlu/TextFeatures.js"
import { fitVectorizer } from "../../../../src/domain/nlu/Vectorizer.js"

const shop = [
  { name: "order", utterances: ["I want to order a pizza", "order food", "can I get a pizza delivered"] },
  { name: "refund", utterances: ["I want my money back", "refund my order", "give me a refund"] },
  { name: "greet", utterances: ["hello", "hi there", "good morning"] }
]

const best = (model: ReturnType<typeof trainIntentModel>, text: string) => model.read(text)[0]!

describe("features", () => {
  it("reads words, bigrams and character n-grams, ignoring case and accents", () => {
    const features = countFeatures("Café cafe")
    // Two equal words: each feature counted twice, none once.
    expect([...features.values()].every((count) => count === 2 || count === 1)).toBe(true)
    expect(countFeatures("Café")).toEqual(countFeatures("cafe!"))
    expect(countFeatures("?!").size).toBe(0)
    // "ab": word, <s> ab, ab </s>, and n-grams of " ab " of 2..5 characters: 3 + 2 + 1 = 6.
    expect(countFeatures("ab").size).toBe(1 + 2 + 6)
  })

  it("weighs vectors to unit length, counting unknown features in the length", () => {
    const vectorizer = fitVectorizer(["refund my order", "order a pizza"])
    const known = vectorizer.vectorize("refund my order")
    const norm = Math.sqrt(known.values.reduce((sum, value) => sum + value * value, 0))
    expect(norm).toBeCloseTo(1, 5)
    const partly = vectorizer.vectorize("refund the zeppelin quickly")
    expect(Math.sqrt(partly.values.reduce((sum, value) => sum + value * value, 0))).toBeLessThan(0.8)
    expect(vectorizer.vectorize("qqq jjj").indices.length).toBe(0)
  })
})

describe("IntentModel on a small bot", () => {
  const model = trainIntentModel(shop)

  it("answers an example typed back with confidence 1, whatever its case and punctuation", () => {
    expect(best(model, "I want my money back")).toMatchObject({ intent: "refund", confidence: 1 })
    expect(best(model, "i want my MONEY back!")).toMatchObject({ intent: "refund", confidence: 1 })
  })

  it("understands paraphrases, plurals and typos above the default threshold", () => {
    for (
      const [text, intent] of [
        ["give me refunds", "refund"],
        ["pizzas delivered", "order"],
        ["I'd like to order pizza", "order"],
        ["orderd food", "order"],
        ["helo", "greet"]
      ]
    ) {
      const reading = best(model, text!)
      expect(reading.intent, text).toBe(intent)
      expect(reading.confidence, text).toBeGreaterThanOrEqual(0.5)
    }
  })

  it("keeps out-of-scope messages below the default threshold", () => {
    for (
      const text of ["what is the weather like on mars tomorrow", "book a flight to paris", "xyzzy", "tell me a joke"]
    ) {
      expect(best(model, text).confidence, text).toBeLessThan(0.5)
    }
  })

  it("scores every intent of `among` in [0, 1], best first, unknown intents 0, an empty text 0", () => {
    const readings = model.read("refund my pizza order", ["greet", "nobody", "order", "refund"])
    expect(readings.map((reading) => reading.intent).sort()).toEqual(["greet", "nobody", "order", "refund"])
    const confidences = readings.map((reading) => reading.confidence)
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
    expect(confidences.every((confidence) => confidence >= 0 && confidence <= 1)).toBe(true)
    expect(readings.find((reading) => reading.intent === "nobody")!.confidence).toBe(0)
    expect(model.read("?!").every((reading) => reading.confidence === 0)).toBe(true)
    expect(model.read("", []).length).toBe(0)
  })

  it("works with two intents of three utterances each", () => {
    const yesNo = trainIntentModel([
      { name: "yes", utterances: ["yes", "sure", "ok"] },
      { name: "no", utterances: ["no", "nope", "not really"] }
    ])
    expect(best(yesNo, "yes please")).toMatchObject({ intent: "yes" })
    expect(best(yesNo, "yes please").confidence).toBeGreaterThanOrEqual(0.5)
    expect(best(yesNo, "no thanks")).toMatchObject({ intent: "no" })
    expect(best(yesNo, "no thanks").confidence).toBeGreaterThanOrEqual(0.5)
    expect(best(yesNo, "what time is it").confidence).toBeLessThan(0.5)
  })

  it("survives no intents, an intent without utterances and a repeated name (the first kept)", () => {
    expect(trainIntentModel([]).read("hello")).toEqual([])
    const odd = trainIntentModel([
      { name: "empty", utterances: [] },
      { name: "greet", utterances: ["hello", "  "] },
      { name: "greet", utterances: ["goodbye"] }
    ])
    expect(odd.intents).toEqual(["empty", "greet"])
    expect(best(odd, "hello")).toMatchObject({ intent: "greet", confidence: 1 })
    expect(odd.read("hello", ["empty"])[0]!.confidence).toBe(0)
  })
})

describe("determinism", () => {
  it("trains the same model from the same intents, however it is stepped", () => {
    const once = trainIntentModel(shop)
    const trainer = intentTrainer(shop, defaultIntentModelOptions)
    let steps = 0
    while (!trainer.step(7)) steps++
    expect(steps).toBeGreaterThan(10)
    const stepped = trainer.model()
    for (const text of ["give me refunds", "hello there", "what is this", "pizza"]) {
      expect(stepped.read(text)).toEqual(once.read(text))
    }
  })

  it("refuses to hand out a model before training is done", () => {
    expect(() => intentTrainer(shop).model()).toThrow(/still training/)
  })
})

describe("out-of-scope examples", () => {
  it("learns them as a class of their own that is never answered, lowering look-alike messages", () => {
    const plain = trainIntentModel(shop)
    const withNone = trainIntentModel(shop, {
      ...defaultIntentModelOptions,
      outOfScope: ["what is the weather", "tell me a joke", "who won the game", "book a flight"]
    })
    expect(withNone.intents).toEqual(["order", "refund", "greet"])
    const text = "what is the weather in rome"
    expect(withNone.read(text).map((reading) => reading.intent)).not.toContain("")
    expect(best(withNone, text).confidence).toBeLessThan(best(plain, text).confidence)
    expect(best(withNone, "give me a refund")).toMatchObject({ intent: "refund", confidence: 1 })
  })
})

describe("the engine's Classifier", () => {
  it.effect("rounds confidences and trains lazily, once", () =>
    Effect.gen(function*() {
      const model = trainIntentModel(shop)
      const ranking = yield* intentClassifier(model).classify("give me refunds", ["order", "refund"])
      expect(ranking[0]!.intent).toBe("refund")
      expect(ranking.every(({ confidence }) => Math.round(confidence * 10_000) === confidence * 10_000)).toBe(true)
      const lazy = lazyIntentClassifier(shop)
      expect(yield* lazy.classify("give me refunds", ["order", "refund"])).toEqual(ranking)
    }))
})
