import { describe, expect, it } from "@effect/vitest"
import {
  chain,
  condition,
  edge,
  node,
  ofCode,
  output,
  TOOL_ID,
  transform,
  trigger,
  validate
} from "./WorkflowFixtures.js"

describe("missing branches", () => {
  it("a condition without its false branch is an error", () => {
    const problems = validate([trigger(), condition("c", "true"), output()], [
      edge("start", "c"),
      edge("c", "end", "true")
    ])
    expect(ofCode(problems, "missing-branch")).toMatchObject([
      { severity: "error", nodeId: "c", message: expect.stringContaining("`false`") }
    ])
  })

  it("a switch case without an edge and a missing default are warnings; the case is located", () => {
    const s = node("s", "switch", {
      expression: "vars.kind",
      cases: [{ name: "a", value: "a" }, { name: "b", value: "b" }]
    })
    const problems = validate(
      [trigger(), transform("kind", "\"a\""), s, output()],
      [...chain("start", "kind", "s"), edge("s", "end", "a")]
    )
    expect(ofCode(problems, "missing-branch")).toMatchObject([
      { severity: "warning", nodeId: "s", field: "data.cases.1" },
      { severity: "warning", nodeId: "s", message: expect.stringContaining("`default`") }
    ])
  })

  it("a loop without done is an error", () => {
    const problems = validate(
      [trigger(), node("l", "loop", { over: "[1]" }), transform("t", "item"), output()],
      [edge("start", "l"), edge("l", "t", "body"), edge("t", "l"), edge("start", "end")]
    )
    expect(ofCode(problems, "missing-branch")).toMatchObject([
      { severity: "error", nodeId: "l", message: expect.stringContaining("`done`") }
    ])
  })

  it("a node that routes its failures without an error edge is a warning on data.onError (the run fails instead)", () => {
    const http = node("call", "http", { toolId: TOOL_ID, outputVariable: "r", onError: "route" })
    const problems = validate([trigger(), http, output()], chain("start", "call", "end"))
    expect(ofCode(problems, "missing-branch")).toMatchObject([
      { severity: "warning", nodeId: "call", field: "data.onError" }
    ])
  })

  it("an approval without approved is an error, without rejected a warning", () => {
    const problems = validate(
      [trigger(), node("a", "wait", { for: "approval" }), node("b", "wait", { for: "approval" }), output()],
      [edge("start", "a"), edge("a", "b", "approved"), edge("b", "end", "rejected")]
    )
    expect(ofCode(problems, "missing-branch")).toMatchObject([
      { severity: "warning", nodeId: "a", message: expect.stringContaining("`rejected`") },
      { severity: "error", nodeId: "b", message: expect.stringContaining("`approved`") }
    ])
  })
})

describe("joins and loops", () => {
  it("a join with one way in is a warning", () => {
    const problems = validate([trigger(), node("j", "join"), output()], chain("start", "j", "end"))
    expect(ofCode(problems, "join-without-branches")).toMatchObject([{ severity: "warning", nodeId: "j" }])
  })

  it("a join with two branches of a parallel is fine", () => {
    const problems = validate(
      [trigger(), node("p", "parallel"), transform("a", "1"), transform("b", "2"), node("j", "join"), output()],
      [...chain("start", "p", "a", "j", "end"), ...chain("p", "b", "j")]
    )
    expect(problems).toEqual([])
  })

  it("a loop without a body is an error", () => {
    const problems = validate([trigger(), node("l", "loop", { over: "[1]" }), output()], [
      edge("start", "l"),
      edge("l", "end", "done")
    ])
    expect(ofCode(problems, "loop-without-body")).toMatchObject([{ severity: "error", nodeId: "l" }])
  })

  it("a body edge that leads straight back to its loop is an error; a body that ends without coming back is fine", () => {
    const problems = validate(
      [
        trigger(),
        node("l", "loop", { over: "[1]" }),
        node("m", "loop", { over: "[1]" }),
        output(),
        node("each", "output", { format: "text", template: "Item {{ item }}" })
      ],
      [
        edge("start", "l"),
        edge("l", "each", "body"),
        edge("l", "m", "done"),
        edge("m", "m", "body"),
        edge("m", "end", "done")
      ]
    )
    expect(problems).toMatchObject([
      { code: "loop-without-body", severity: "error", nodeId: "m", message: expect.stringContaining("straight back") }
    ])
  })
})
