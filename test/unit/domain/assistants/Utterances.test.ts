import { describe, expect, it } from "@effect/vitest"
import { distinctUtterances } from "../../../../src/domain/assistants/Utterances.js"

describe("distinctUtterances", () => {
  it("keeps each example once, as first written, in the order given", () => {
    expect(distinctUtterances(["Where is my order", "where is  my ORDER", "Track it", " Track it "])).toEqual([
      "Where is my order",
      "Track it"
    ])
  })

  it("trims what it keeps and keeps examples that differ in more than case and spacing", () => {
    expect(distinctUtterances(["  hi ", "hi!", "hello"])).toEqual(["hi", "hi!", "hello"])
    expect(distinctUtterances([])).toEqual([])
  })
})
