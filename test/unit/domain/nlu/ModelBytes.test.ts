import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { type IntentModel, type TrainingIntent, trainIntentModel } from "../../../../src/domain/nlu/IntentModel.js"
import { seededRandom } from "../../../../src/domain/nlu/Random.js"

setFlagsFromString("--expose_gc")
const gc = runInNewContext("gc") as () => void

/** Heap and array-buffer bytes in use after collecting (array buffers are freed a little after their owners). */
const inUse = Effect.gen(function*() {
  for (let round = 0; round < 3; round++) {
    gc()
    yield* Effect.sleep("30 millis")
  }
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
})

// 40 intents of 60 utterances made of words of their own and words all share.
const random = seededRandom(5)
const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pu", "da", "fe"]
const word = () =>
  Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * 12)]).join("")
const shared = Array.from({ length: 200 }, word)
const intents: ReadonlyArray<TrainingIntent> = Array.from({ length: 40 }, (_, i) => {
  const own = Array.from({ length: 30 }, word)
  return {
    name: `intent_${i}`,
    utterances: Array.from({ length: 60 }, () =>
      Array.from(
        { length: 4 + Math.floor(random() * 6) },
        () => random() < 0.5 ? own[Math.floor(random() * 30)] : shared[Math.floor(random() * 200)]
      ).join(" "))
  }
})

describe("IntentModel.bytes", () => {
  it.live("counts the bytes the model really keeps (not its training vectors)", () =>
    Effect.gen(function*() {
      const holder: { model: IntentModel | undefined } = { model: trainIntentModel(intents) }
      holder.model!.read("warm up the scratch space")
      const counted = holder.model!.bytes
      const held = yield* inUse
      holder.model = undefined
      const retained = held - (yield* inUse)
      expect(counted / retained).toBeGreaterThan(0.85)
      expect(counted / retained).toBeLessThan(1.15)
    }))
})
