import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  condition,
  edge,
  end,
  jumpTo,
  jumpToSubflow,
  message,
  question,
  router,
  start,
  subflow
} from "../../runtime/FlowFixtures.js"
import { about, analyze, ofCode } from "./AnalysisFixtures.js"

const choice = { kind: "choice", options: [{ value: "small", label: "Small" }, { value: "large", label: "Large" }] }
const intents = [
  { name: "greet", utterances: ["hello", "hi there", "good morning"], slots: [] },
  { name: "bye", utterances: ["goodbye", "see you", "bye now"], slots: [] }
]

describe("the start", () => {
  it("is missing, doubled, or has no next edge: errors, as compile refuses them", () => {
    expect(ofCode(analyze({ nodes: [message("m", "Hi")], edges: [] }), "missing-start")).toMatchObject([
      { severity: "error", nodeIds: [] }
    ])
    expect(
      ofCode(
        analyze({ nodes: [start("a"), start("b"), end()], edges: [...chain("a", "end"), ...chain("b", "end")] }),
        "multiple-starts"
      )
    ).toMatchObject([{ severity: "error", nodeIds: ["a", "b"] }])
    expect(about(analyze({ nodes: [start(), end()], edges: [] }), "dead-end", "start")).toMatchObject([
      { severity: "error", repairable: false }
    ])
  })

  it("a linear flow has nothing to report", () => {
    expect(analyze({ nodes: [start(), message("hi", "Hello"), end()], edges: chain("start", "hi", "end") })).toEqual([])
  })
})

describe("dead ends", () => {
  it("a message without next is a repairable error", () => {
    const findings = analyze({ nodes: [start(), message("hi", "Hello"), end()], edges: chain("start", "hi") })
    expect(about(findings, "dead-end", "hi")).toMatchObject([{ severity: "error", repairable: true }])
  })

  it("a choice option with neither its option edge nor answered is named", () => {
    const ask = question("ask", "size", choice)
    const partial = analyze({
      nodes: [start(), ask, end()],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "end", { kind: "option", option: "small" }),
        edge("ask", "end", { kind: "fallback" })
      ]
    })
    expect(about(partial, "dead-end", "ask")).toHaveLength(1)
    expect(about(partial, "dead-end", "ask")[0]!.message).toContain("option large")
    const covered = analyze({
      nodes: [start(), ask, end()],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "end", { kind: "answered" }),
        edge("ask", "end", { kind: "fallback" })
      ]
    })
    expect(ofCode(covered, "dead-end")).toEqual([])
  })

  it("a router intent and a condition case without their edges", () => {
    const findings = analyze({
      nodes: [start(), router("route", ["greet", "bye"]), condition("check", [["vip", "vars.vip"]]), end()],
      edges: [
        ...chain("start", "route"),
        edge("route", "check", { kind: "intent", intent: "greet" }),
        edge("route", "end", { kind: "fallback" }),
        edge("check", "end", { kind: "fallback" })
      ],
      intents
    })
    expect(about(findings, "dead-end", "route")[0]!.message).toContain("intent bye")
    expect(about(findings, "dead-end", "check")[0]!.message).toContain("case vip")
  })
})

describe("fallbacks", () => {
  it("a question, a router and a condition without fallback are repairable warnings", () => {
    const findings = analyze({
      nodes: [
        start(),
        question("ask", "name", { kind: "text" }),
        router("route", ["greet", "bye"]),
        condition("check", [["yes", "true"]]),
        end()
      ],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "route", { kind: "answered" }),
        edge("route", "check", { kind: "intent", intent: "greet" }),
        edge("route", "end", { kind: "intent", intent: "bye" }),
        edge("check", "end", { kind: "case", case: "yes" })
      ],
      intents
    })
    expect(about(findings, "question-without-fallback", "ask")).toMatchObject([{
      severity: "warning",
      repairable: true
    }])
    expect(about(findings, "router-without-fallback", "route")).toMatchObject([{ severity: "warning" }])
    expect(about(findings, "condition-without-fallback", "check")).toMatchObject([{ severity: "warning" }])
  })

  it("with a fallback edge there is no finding", () => {
    const findings = analyze({
      nodes: [start(), question("ask", "name", { kind: "text" }), end()],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "end", { kind: "answered" }),
        edge("ask", "end", { kind: "fallback" })
      ]
    })
    expect(findings).toEqual([])
  })
})

describe("dangling and duplicate edges", () => {
  it("an edge out of an end, an unlisted intent's edge and a removed case's edge dangle", () => {
    const dangling = [
      edge("end", "start"),
      edge("route", "end", { kind: "intent", intent: "bye" }),
      edge("check", "end", { kind: "case", case: "gone" })
    ]
    const findings = analyze({
      nodes: [start(), router("route", ["greet"]), condition("check", [["yes", "true"]]), end()],
      edges: [
        ...chain("start", "route"),
        edge("route", "check", { kind: "intent", intent: "greet" }),
        edge("route", "end", { kind: "fallback" }),
        edge("check", "end", { kind: "case", case: "yes" }),
        edge("check", "end", { kind: "fallback" }),
        ...dangling
      ],
      intents
    })
    // In the flow's node order: route, check, end.
    expect(ofCode(findings, "dangling-edge").map((f) => f.edgeIds)).toEqual([[dangling[1]!.id], [dangling[2]!.id], [
      dangling[0]!.id
    ]])
    expect(ofCode(findings, "dangling-edge").every((f) => f.severity === "error" && f.repairable)).toBe(true)
  })

  it("a second edge for one outcome is a duplicate route; its target is then unreachable", () => {
    const first = edge("hi", "end")
    const second = edge("hi", "other")
    const findings = analyze({
      nodes: [start(), message("hi", "Hello"), end(), end("other")],
      edges: [...chain("start", "hi"), first, second]
    })
    expect(ofCode(findings, "duplicate-route")).toMatchObject([{ nodeIds: ["hi"], edgeIds: [first.id, second.id] }])
    expect(about(findings, "unreachable-node", "other")).toHaveLength(1)
  })
})

describe("broken references", () => {
  it("a jump to a missing node or an undeclared sub-flow, and a sub-flow entering nowhere", () => {
    const findings = analyze({
      nodes: [
        start(),
        condition("check", [["a", "true"]]),
        jumpTo("toNode", "ghost"),
        jumpToSubflow("toPage", "nopage")
      ],
      edges: [
        ...chain("start", "check"),
        edge("check", "toNode", { kind: "case", case: "a" }),
        edge("check", "toPage", { kind: "fallback" })
      ],
      subflows: [subflow("page", "missing")]
    })
    const broken = ofCode(findings, "broken-reference")
    expect(broken.map((f) => f.nodeIds)).toEqual([["toNode"], ["toPage"], []])
    expect(broken[2]!.message).toContain("page")
  })

  it("a jump to an existing node or sub-flow entry is fine, and reaches it", () => {
    const findings = analyze({
      nodes: [start(), jumpToSubflow("go", "page"), message("entry", "In the page", {}), end()],
      edges: [...chain("start", "go"), ...chain("entry", "end")],
      subflows: [subflow("page", "entry")]
    })
    expect(findings).toEqual([])
  })
})
