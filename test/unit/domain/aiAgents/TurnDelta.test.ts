import { describe, expect, it } from "@effect/vitest"
import { emptyView, pieces, remainder, seeDelta, type TurnDelta } from "../../../../src/domain/aiAgents/TurnDelta.js"

const delta = (step: number, text: string, epoch = 1): TurnDelta => ({
  conversationId: "c",
  idempotencyKey: "k",
  epoch,
  step,
  seq: 0,
  delta: text
})

const see = (deltas: ReadonlyArray<TurnDelta>) =>
  deltas.reduce(
    (state, next) => {
      const seen = seeDelta(state.view, next)
      return { view: seen.view, shown: seen.show ? [...state.shown, next.delta] : state.shown }
    },
    { view: emptyView, shown: [] as Array<string> }
  )

describe("pieces", () => {
  it("cuts long text into parts of at most the limit, never inside a surrogate pair, and loses nothing", () => {
    expect(pieces("")).toEqual([])
    expect(pieces("abcdef", 4)).toEqual(["abcd", "ef"])
    const emoji = "ab😀cd"
    const parts = pieces(emoji, 3)
    expect(parts.join("")).toBe(emoji)
    expect(parts).toEqual(["ab", "😀c", "d"])
    const long = "x".repeat(2500)
    expect(pieces(long).map((part) => part.length)).toEqual([1000, 1000, 500])
  })
})

describe("the deltas a stream shows", () => {
  it("shows every piece of the steps in order, and only the rest of the reply at the end", () => {
    const { shown, view } = see([delta(0, "Let me "), delta(0, "check."), delta(2, "Both "), delta(2, "ship")])
    expect(shown).toEqual(["Let me ", "check.", "Both ", "ship"])
    expect(remainder(view, "Both shipped.")).toBe("ped.")
    expect(remainder(view, "Both ship")).toBe("")
  })

  it("shows the whole reply at the end when no piece came (a repeat answered from storage)", () => {
    expect(remainder(emptyView, "Both shipped.")).toBe("Both shipped.")
  })

  it("stops at a step written again under another epoch (a node died mid-answer); the answer settles it", () => {
    const { shown, view } = see([delta(2, "Both ", 1), delta(2, "Bo", 2), delta(2, "th", 2)])
    expect(shown).toEqual(["Both "])
    expect(view.diverged).toBe(true)
    expect(remainder(view, "Both shipped.")).toBe("")
  })

  it("stops at a piece of an earlier step, and adds nothing when the reply went another way", () => {
    expect(see([delta(2, "a"), delta(0, "b")]).view.diverged).toBe(true)
    expect(remainder(see([delta(2, "Maybe")]).view, "Both shipped.")).toBe("")
  })
})
