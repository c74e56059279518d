import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { automaticThreshold } from "../../../../src/domain/nlu/CrossValidation.js"
import { type TrainingIntent, trainIntentModel } from "../../../../src/domain/nlu/IntentModel.js"
import { DEFAULT_THRESHOLD } from "../../../../src/domain/nlu/OutOfScopeThreshold.js"
import { NluModels, trainsAtOnce } from "../../../../src/services/nlu/NluModels.js"

const shop: ReadonlyArray<TrainingIntent> = [
  { name: "order", utterances: ["I want to order a pizza", "order food", "can I get a pizza delivered"] },
  { name: "refund", utterances: ["I want my money back", "refund my order", "give me a refund"] }
]

const cities = ["paris", "rome", "tokyo", "lima", "oslo", "cairo", "delhi", "quito", "accra", "sofia"]
const days = ["today", "tomorrow", "on monday", "this weekend", "tonight", "next week"]
const endings = ["", " please", "?", " exactly", " then", " again", " for me"]
const phrasings = [
  "what is the weather in",
  "will it rain in",
  "forecast for",
  "how hot is it in",
  "is it sunny in",
  "weather report for",
  "temperature in",
  "do I need an umbrella in",
  "is it cold in",
  "how windy is it in",
  "will it snow in"
]

/** Enough utterances that training takes many time slices (and is never done synchronously). */
const weather: TrainingIntent = {
  name: "weather",
  utterances: phrasings.flatMap((phrase) =>
    cities.flatMap((city) => days.flatMap((day) => endings.map((ending) => `${phrase} ${city} ${day}${ending}`)))
  )
}
const withWeather = [...shop, weather]

const confidenceOf = (ranking: ReadonlyArray<{ intent: string; confidence: number }>, intent: string) =>
  ranking.find((score) => score.intent === intent)?.confidence ?? 0

describe("NluModels", () => {
  it.live("trains a small new intents set at once, then serves the old model while the new one trains", () =>
    Effect.gen(function*() {
      expect(trainsAtOnce(shop)).toBe(true)
      expect(trainsAtOnce(withWeather)).toBe(false)
      const models = yield* NluModels
      const before = yield* models.classifier("draft:a", shop)
      expect((yield* before.classify("give me a refund", ["order", "refund"]))[0]).toEqual({
        intent: "refund",
        confidence: 1
      })
      // The intents change: the new classifier answers at once, with the previous model.
      const after = yield* models.classifier("draft:a", withWeather)
      expect(yield* models.isReady(withWeather)).toBe(false)
      const early = yield* after.classify("will it rain in paris tomorrow", ["order", "refund", "weather"])
      expect(confidenceOf(early, "weather")).toBe(0)
      // Once trained, the same classifier answers with the new model.
      yield* models.model("draft:a", withWeather)
      expect(yield* models.isReady(withWeather)).toBe(true)
      const late = yield* after.classify("will it rain in paris tomorrow", ["order", "refund", "weather"])
      expect(late[0]!.intent).toBe("weather")
      expect(late[0]!.confidence).toBeGreaterThan(0.5)
    }).pipe(Effect.provide(NluModels.Default)))

  it.live("makes a brand-new large intents set wait for its training, which leaves the event loop free", () =>
    Effect.gen(function*() {
      const models = yield* NluModels
      let timerFiredWhileTraining = false
      const classifier = yield* models.classifier("draft:b", withWeather)
      setTimeout(() => {
        timerFiredWhileTraining = true
      }, 1)
      const ranking = yield* classifier.classify("is it sunny in oslo tonight", ["order", "refund", "weather"])
      expect(ranking[0]!.intent).toBe("weather")
      expect(timerFiredWhileTraining).toBe(true)
    }).pipe(Effect.provide(NluModels.Default)))

  it.live("skips a training its owner moved on from, and restarts it for a classification that needs it", () =>
    Effect.gen(function*() {
      const models = yield* NluModels
      const older = yield* models.classifier("draft:e", withWeather)
      const newer = [...withWeather, { name: "greet", utterances: ["hello", "hi there"] }]
      yield* models.classifier("draft:e", newer)
      yield* models.model("draft:e", newer)
      // The older intents were never trained (their owner wanted the newer ones first)...
      expect(yield* models.isReady(withWeather)).toBe(false)
      // ...yet a conversation still on them gets its answer: the previous model of its owner, the newer one.
      const ranking = yield* older.classify("is it sunny in oslo tonight", ["order", "refund", "weather"])
      expect(ranking[0]!.intent).toBe("weather")
      // With no previous model (another owner, the newer intents still training), the skipped training restarts.
      const first = yield* models.classifier("draft:g", withWeather)
      yield* models.classifier("draft:g", [...newer, { name: "bye", utterances: ["goodbye", "see you"] }])
      yield* Effect.sleep("5 millis")
      expect(yield* models.isReady(withWeather)).toBe(false)
      const answer = yield* first.classify("will it rain in lima today", ["weather"]).pipe(Effect.timeout("30 seconds"))
      expect(answer[0]!.intent).toBe("weather")
      expect(yield* models.isReady(withWeather)).toBe(true)
    }).pipe(Effect.provide(NluModels.Default)))

  it.live("shares one deterministic model among the holders of equal intents", () =>
    Effect.gen(function*() {
      const models = yield* NluModels
      const forDraft = yield* models.model("draft:c", shop)
      const forDeployment = yield* models.model("deployment:d", shop.map((intent) => ({ ...intent })))
      expect(forDeployment).toBe(forDraft)
      const fresh = trainIntentModel(shop)
      for (const text of ["pizza please", "money back", "hello"]) expect(forDraft.read(text)).toEqual(fresh.read(text))
    }).pipe(Effect.provide(NluModels.Default)))

  it.live("answers each model's automatic threshold, the one its intents' cross-validation chooses", () =>
    Effect.gen(function*() {
      const models = yield* NluModels
      const classifier = yield* models.classifier("draft:t", withWeather)
      const threshold = yield* classifier.threshold!
      expect(threshold).toBe(automaticThreshold(withWeather))
      expect((yield* models.trained("deployment:t", withWeather)).threshold).toBe(threshold)
      // Too little to cross-validate: the former default.
      const single = yield* models.classifier("draft:u", [{ name: "greet", utterances: ["hello"] }])
      expect(yield* single.threshold!).toBe(DEFAULT_THRESHOLD)
    }).pipe(Effect.provide(NluModels.Default)))
})
