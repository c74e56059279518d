import { describe, expect, it } from "@effect/vitest"
import { chain, condition, edge, end, jumpTo, message, question, setValue, start } from "../../runtime/FlowFixtures.js"
import { about, analyze, ofCode } from "./AnalysisFixtures.js"

describe("unreachable nodes", () => {
  it("a node nothing leads to is a warning; one a jump leads to is reached", () => {
    const findings = analyze({
      nodes: [start(), jumpTo("go", "target"), message("target", "Here"), message("orphan", "Nobody"), end()],
      edges: [...chain("start", "go"), ...chain("target", "end"), ...chain("orphan", "end")]
    })
    expect(ofCode(findings, "unreachable-node")).toMatchObject([{ severity: "warning", nodeIds: ["orphan"] }])
  })

  it("without a single start nothing is called unreachable", () => {
    expect(ofCode(analyze({ nodes: [message("a", "A"), end()], edges: chain("a", "end") }), "unreachable-node"))
      .toEqual([])
  })
})

describe("inescapable cycles", () => {
  it("a loop that never waits and never leaves is an error naming its nodes and edges", () => {
    const loop = [edge("a", "b"), edge("b", "a")]
    const findings = analyze({
      nodes: [start(), message("a", "A"), setValue("b", "n", 1)],
      edges: [...chain("start", "a"), ...loop]
    })
    expect(ofCode(findings, "inescapable-cycle")).toMatchObject([
      { severity: "error", nodeIds: ["a", "b"], edgeIds: loop.map((e) => e.id) }
    ])
  })

  it("a jump to itself loops too", () => {
    const findings = analyze({ nodes: [start(), jumpTo("again", "again")], edges: chain("start", "again") })
    expect(about(findings, "inescapable-cycle", "again")).toHaveLength(1)
  })

  it("a loop through a question is a menu, and a loop with a way out is not a trap", () => {
    const menu = analyze({
      nodes: [start(), question("ask", "x", { kind: "text" }), message("echo", "You said {{x}}")],
      edges: [
        ...chain("start", "ask"),
        edge("ask", "echo", { kind: "answered" }),
        edge("ask", "echo", { kind: "fallback" }),
        edge("echo", "ask")
      ]
    })
    expect(ofCode(menu, "inescapable-cycle")).toEqual([])
    const counted = analyze({
      nodes: [start(), setValue("inc", "n", 1), condition("more", [["again", "vars.n < 3"]]), end()],
      edges: [
        ...chain("start", "inc", "more"),
        edge("more", "inc", { kind: "case", case: "again" }),
        edge("more", "end", { kind: "fallback" })
      ]
    })
    expect(ofCode(counted, "inescapable-cycle")).toEqual([])
  })

  it("an unreachable loop is only unreachable", () => {
    const findings = analyze({
      nodes: [start(), end(), message("a", "A"), message("b", "B")],
      edges: [...chain("start", "end"), edge("a", "b"), edge("b", "a")]
    })
    expect(ofCode(findings, "inescapable-cycle")).toEqual([])
    expect(ofCode(findings, "unreachable-node").map((f) => f.nodeIds[0])).toEqual(["a", "b"])
  })
})
