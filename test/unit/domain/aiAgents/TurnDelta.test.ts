import { describe, expect, it } from "@effect/vitest"
import {
  type DeltaView,
  emptyView,
  pieces,
  remainder,
  resumedView,
  seeDelta,
  seeStoredText,
  type TurnDelta
} from "../../../../src/domain/aiAgents/TurnDelta.js"
import { resumeAt } from "../../../../src/domain/aiAgents/TurnStreamEvents.js"

const delta = (step: number, offset: number, text: string, epoch = 1): TurnDelta => ({
  conversationId: "c",
  idempotencyKey: "k",
  epoch,
  step,
  seq: 0,
  offset,
  delta: text
})

/** What a view shows of live pieces and stored steps (`[step, epoch, text]`), in the order given. */
const see = (
  inputs: ReadonlyArray<TurnDelta | readonly [number, number, string]>,
  from: DeltaView = emptyView
) =>
  inputs.reduce(
    (state, next) => {
      const seen = Array.isArray(next)
        ? seeStoredText(state.view, next[0], next[1], next[2])
        : seeDelta(state.view, next as TurnDelta)
      return { view: seen.view, shown: seen.text === "" ? state.shown : [...state.shown, seen.text] }
    },
    { view: from, shown: [] as Array<string> }
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

describe("the text a stream shows", () => {
  it("shows every piece of the steps in order, and only the rest of the reply at the end", () => {
    const { shown, view } = see([
      delta(0, 0, "Let me "),
      delta(0, 7, "check."),
      delta(2, 0, "Both "),
      delta(2, 5, "ship")
    ])
    expect(shown).toEqual(["Let me ", "check.", "Both ", "ship"])
    expect(remainder(view, "Both shipped.")).toBe("ped.")
    expect(remainder(view, "Both ship")).toBe("")
  })

  it("fills a missed piece from the stored step, and shows no later piece of that step", () => {
    const { shown, view } = see([
      delta(0, 0, "Both "),
      delta(0, 9, "ped."),
      [0, 1, "Both shipped."],
      delta(0, 5, "ship")
    ])
    expect(shown).toEqual(["Both ", "shipped."])
    expect(remainder(view, "Both shipped.")).toBe("")
  })

  it("shows a piece seen in part only from where it was", () => {
    expect(see([delta(0, 0, "Both "), delta(0, 2, "th ship")]).shown).toEqual(["Both ", "ship"])
  })

  it("shows the whole reply when no piece came (a repeat answered from storage)", () => {
    expect(see([[0, 1, ""], [3, 1, "Both shipped."]]).shown).toEqual(["Both shipped."])
    expect(remainder(emptyView, "Both shipped.")).toBe("Both shipped.")
    // A handoff whose model said nothing: its words at the end.
    expect(remainder(see([[1, 1, ""]]).view, "A colleague will answer.")).toBe("A colleague will answer.")
  })

  it("stops at a step written again under another epoch (a node died mid-answer); the answer settles it", () => {
    const { shown, view } = see([delta(2, 0, "Both ", 1), delta(2, 0, "Bo", 2), delta(2, 2, "th", 2)])
    expect(shown).toEqual(["Both "])
    expect(view.diverged).toBe(true)
    expect(remainder(view, "Both shipped.")).toBe("")
    // The stored step written by the other epoch does not continue what the pieces showed.
    expect(see([delta(2, 0, "Both ", 1), [2, 2, "Maybe later."]]).view.diverged).toBe(true)
    expect(see([delta(2, 0, "Both ", 1), [2, 1, "Maybe later."]]).view.diverged).toBe(true)
  })

  it("skips a late piece of an earlier step, and adds nothing when the reply went another way", () => {
    expect(see([delta(2, 0, "a"), delta(0, 0, "b")]).shown).toEqual(["a"])
    expect(remainder(see([delta(2, 0, "Maybe")]).view, "Both shipped.")).toBe("")
  })

  it("resumed after Last-Event-ID, shows only what the client did not see", () => {
    const resumed = resumedView(3, 5)
    expect(see([[0, 1, "Let me check."], [3, 1, "Both shipped."]], resumed).shown).toEqual(["shipped."])
    expect(see([delta(3, 0, "Both "), delta(3, 5, "shipped.")], resumed).shown).toEqual(["shipped."])
    // A piece beyond what the client saw, with a gap before it: the stored step fills in.
    expect(see([delta(3, 9, "ped."), [3, 1, "Both shipped."]], resumed).shown).toEqual(["shipped."])
    expect(remainder(see([[3, 1, "Both shipped."]], resumedView(3, Infinity)).view, "Both shipped.")).toBe("")
  })
})

describe("Last-Event-ID", () => {
  it("reads the ids the server writes, and ignores any other", () => {
    const text = resumeAt("m3.5")!
    expect([text.textStep, text.textShown, text.sawToolEvent(2, 9), text.sawToolEvent(3, 0)]).toEqual([
      3,
      5,
      true,
      false
    ])
    const tool = resumeAt("s0.1")!
    expect([tool.textStep, tool.textShown, tool.sawToolEvent(0, 1), tool.sawToolEvent(0, 2), tool.sawToolEvent(1, 0)])
      .toEqual([0, Infinity, true, false, false])
    expect(resumeAt("done")!.sawToolEvent(99, 99)).toBe(true)
    // The guardrail hits on the user's message come first: g{n} saw those up to n, nothing else.
    const input = resumeAt("g1")!
    expect([input.sawInputEvent(1), input.sawInputEvent(2), input.sawToolEvent(0, 0), input.textShown])
      .toEqual([true, false, false, 0])
    expect([text.sawInputEvent(9), tool.sawInputEvent(9)]).toEqual([true, true])
    for (const other of ["", "m3", "g", "g1.2", "x1.2", "m1.2.3", "m-1.2", "m99999999999.1", "s1.1e3", "m 1.2"]) {
      expect([other, resumeAt(other)]).toEqual([other, undefined])
    }
    // Surrounding white space is not part of the id.
    expect(resumeAt(" m1.2 ")?.textShown).toBe(2)
    expect(resumeAt(undefined)).toBeUndefined()
  })
})
