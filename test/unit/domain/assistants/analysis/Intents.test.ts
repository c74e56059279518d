import { describe, expect, it } from "@effect/vitest"
import { chain, edge, end, router, start } from "../../runtime/FlowFixtures.js"
import { analyze, ofCode } from "./AnalysisFixtures.js"

const intent = (name: string, utterances: ReadonlyArray<string>) => ({ name, utterances, slots: [] })
const many = (prefix: string) => [`${prefix} one`, `${prefix} two`, `${prefix} three`]

const routed = (intents: ReadonlyArray<string>, defined: ReadonlyArray<ReturnType<typeof intent>>) =>
  analyze({
    nodes: [start(), router("route", intents), end()],
    edges: [
      ...chain("start", "route"),
      ...intents.map((name) => edge("route", "end", { kind: "intent", intent: name })),
      edge("route", "end", { kind: "fallback" })
    ],
    intents: defined
  })

describe("intents", () => {
  it("a routed intent that is not defined is an error, repairable towards the nearest defined name", () => {
    const findings = routed(["refnd"], [intent("refund", many("refund")), intent("greet", many("hello"))])
    expect(ofCode(findings, "undefined-intent")).toMatchObject([
      { severity: "error", nodeIds: ["route"], intents: ["refnd"], repairable: true }
    ])
    expect(ofCode(findings, "undefined-intent")[0]!.message).toContain("did you mean refund?")
  })

  it("with no defined intent left to re-point to, it is not repairable", () => {
    const findings = routed(["refund", "ghost"], [intent("refund", many("refund"))])
    expect(ofCode(findings, "undefined-intent")).toMatchObject([{ intents: ["ghost"], repairable: false }])
  })

  it("a defined intent no router routes is a warning; a routed one is not", () => {
    const findings = routed(["greet"], [intent("greet", many("hello")), intent("spare", many("spare"))])
    expect(ofCode(findings, "unused-intent")).toMatchObject([{ severity: "warning", intents: ["spare"], nodeIds: [] }])
  })

  it("an example two intents share, up to case and spacing, is a warning naming both and the example", () => {
    const findings = routed(["a", "b"], [
      intent("a", ["Where is my order", ...many("a")]),
      intent("b", ["where is  my ORDER", ...many("b")])
    ])
    expect(ofCode(findings, "shared-utterance")).toMatchObject([
      { severity: "warning", intents: ["a", "b"], utterance: "Where is my order" }
    ])
    expect(ofCode(routed(["a", "b"], [intent("a", many("a")), intent("b", many("b"))]), "shared-utterance")).toEqual([])
  })

  it("fewer than three distinct examples is a warning", () => {
    const findings = routed(["thin", "fine"], [intent("thin", ["hi", "HI", "hey"]), intent("fine", many("fine"))])
    expect(ofCode(findings, "few-utterances")).toMatchObject([{ severity: "warning", intents: ["thin"] }])
  })
})
