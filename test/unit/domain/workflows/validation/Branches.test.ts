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

  it("branches of a parallel that meet at different joins are an error (the engine cannot run them)", () => {
    const problems = validate(
      [
        trigger(),
        node("p", "parallel"),
        transform("a", "1"),
        transform("b", "2"),
        node("j1", "join"),
        node("j2", "join"),
        output()
      ],
      [...chain("start", "p", "a", "j1", "end"), ...chain("p", "b", "j2", "end")]
    )
    expect(ofCode(problems, "parallel-joins-apart")).toMatchObject([
      { severity: "error", nodeId: "p", message: expect.stringContaining("(j1, j2)") }
    ])
  })

  it("a branch that may reach either of two joins is an error; one that may end without a join is fine", () => {
    const nodes = [
      trigger(),
      node("p", "parallel"),
      condition("c", "true"),
      transform("b", "2"),
      node("j1", "join"),
      node("j2", "join"),
      output()
    ]
    const apart = validate(nodes, [
      ...chain("start", "p", "c"),
      edge("c", "j1", "true"),
      edge("c", "j2", "false"),
      ...chain("p", "b", "j1", "end"),
      edge("j2", "end")
    ])
    expect(ofCode(apart, "parallel-joins-apart")).toMatchObject([{ nodeId: "p" }])
    const ending = validate([...nodes.filter((n) => n.id !== "j2"), output("stop")], [
      ...chain("start", "p", "c"),
      edge("c", "j1", "true"),
      edge("c", "stop", "false"),
      ...chain("p", "b", "j1", "end")
    ])
    expect(ofCode(ending, "parallel-joins-apart")).toEqual([])
  })

  it("a parallel nested in a branch meets at its own join, and the outer branch goes on to the outer join", () => {
    const problems = validate(
      [
        trigger(),
        node("outer", "parallel"),
        node("inner", "parallel"),
        transform("x", "1"),
        transform("y", "2"),
        node("innerJoin", "join"),
        transform("b", "3"),
        node("outerJoin", "join"),
        output()
      ],
      [
        ...chain("start", "outer", "inner", "x", "innerJoin", "outerJoin", "end"),
        ...chain("inner", "y", "innerJoin"),
        ...chain("outer", "b", "outerJoin")
      ]
    )
    expect(ofCode(problems, "parallel-joins-apart")).toEqual([])
    expect(problems.filter((problem) => problem.severity === "error")).toEqual([])
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
