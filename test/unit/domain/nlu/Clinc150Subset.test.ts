/**
 * A CI-sized check on real data: 30 of CLINC150's intents (`data_full`
 * train examples), scored on their official test examples and the
 * out-of-scope test examples. The full benchmark is `npm run bench:nlu`.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { trainIntentModel } from "../../../../src/domain/nlu/IntentModel.js"
import { corpus } from "../../../support/Fixtures.js"

/** The 30 intents' train and test examples and all of oos_test (test/fixtures/SOURCES.md). */
const file = corpus("intents/clinc150/data_full.subset.json")

describe("CLINC150, 30 intents", () => {
  it("routes in-scope messages and turns most out-of-scope ones away at the default threshold", () => {
    const data = JSON.parse(readFileSync(file, "utf8")) as Record<string, Array<[string, string]>>
    const names = [...new Set(data.train!.map(([, intent]) => intent))].slice(0, 30)
    const model = trainIntentModel(names.map((name) => ({
      name,
      utterances: data.train!.filter(([, intent]) => intent === name).map(([text]) => text)
    })))
    const test = data.test!.filter(([, intent]) => names.includes(intent))
    const rightAt = (threshold: number) =>
      test.filter(([text, intent]) => {
        const [best] = model.read(text)
        return best!.intent === intent && best!.confidence >= threshold
      }).length / test.length
    const stoppedAt = (threshold: number) =>
      data.oos_test!.filter(([text]) => model.read(text)[0]!.confidence < threshold).length / data.oos_test!.length
    expect(test.length).toBe(900)
    expect(rightAt(0)).toBeGreaterThan(0.97)
    expect(rightAt(0.5)).toBeGreaterThan(0.92)
    expect(stoppedAt(0.5)).toBeGreaterThan(0.94)
  }, 20_000)
})
