import { describe, expect, it } from "@effect/vitest"
import { chain, condition, edge, node, ofCode, output, transform, trigger, validate } from "./WorkflowFixtures.js"

describe("reachability", () => {
  it("a node no run reaches is a warning, and not also a dead end", () => {
    const problems = validate([trigger(), transform("orphan", "1"), output()], chain("start", "end"))
    expect(ofCode(problems, "unreachable-node")).toMatchObject([{ severity: "warning", nodeId: "orphan" }])
    expect(ofCode(problems, "dead-end")).toEqual([])
  })

  it("an edge the engine cannot follow does not make its target reachable", () => {
    const problems = validate([trigger(), transform("t", "1"), output()], [
      edge("start", "t", "nope"),
      ...chain("start", "end")
    ])
    expect(ofCode(problems, "unreachable-node")).toMatchObject([{ nodeId: "t" }])
  })

  it("without a trigger nothing is called unreachable", () => {
    expect(ofCode(validate([transform("t", "1"), output()], chain("t", "end")), "unreachable-node")).toEqual([])
  })

  it("a node other than an output with no way out is a warning; an output may end a run", () => {
    const problems = validate(
      [trigger(), condition("c", "true"), transform("t", "1"), output()],
      [edge("start", "c"), edge("c", "t", "true"), edge("c", "end", "false")]
    )
    expect(ofCode(problems, "dead-end")).toMatchObject([{ severity: "warning", nodeId: "t" }])
  })

  it("a node whose error route exists but whose main exit has no edge is a dead end", () => {
    const http = node("call", "http", {
      toolId: "5b0c9a70-3a55-4f51-9d2c-6f0d4cfc1a01",
      outputVariable: "r",
      onError: "route"
    })
    const problems = validate([trigger(), http, output()], [edge("start", "call"), edge("call", "end", "error")])
    expect(ofCode(problems, "dead-end")).toMatchObject([{ nodeId: "call" }])
  })
})

describe("cycles", () => {
  it("a cycle that does not go round a loop's body is an error on its first node", () => {
    const problems = validate(
      [trigger(), transform("a", "1"), condition("b", "vars.a = 1"), output()],
      [...chain("start", "a", "b"), edge("b", "a", "true"), edge("b", "end", "false")]
    )
    expect(ofCode(problems, "cycle-without-exit")).toMatchObject([
      { severity: "error", nodeId: "a", message: expect.stringContaining("a and b") }
    ])
  })

  it("a loop's body going back to it is no cycle problem, even nested", () => {
    const problems = validate(
      [
        trigger(),
        node("outer", "loop", { over: "[[1, 2], [3]]" }),
        node("inner", "loop", { over: "item" }),
        transform("t", "item * 2"),
        output()
      ],
      [
        edge("start", "outer"),
        edge("outer", "inner", "body"),
        edge("inner", "t", "body"),
        edge("t", "inner"),
        edge("inner", "outer", "done"),
        edge("outer", "end", "done")
      ]
    )
    expect(problems).toEqual([])
  })

  it("a cycle through a loop's done exit is unbounded", () => {
    const problems = validate(
      [trigger(), node("l", "loop", { over: "[1]" }), transform("t", "1"), transform("again", "2"), output()],
      [
        edge("start", "l"),
        edge("l", "t", "body"),
        edge("t", "l"),
        edge("l", "again", "done"),
        edge("again", "l"),
        edge("start", "end")
      ]
    )
    expect(ofCode(problems, "cycle-without-exit")).toMatchObject([{ nodeId: "l" }])
  })

  it("a node with an edge to itself is a cycle", () => {
    const problems = validate([trigger(), transform("t", "1"), output()], [
      ...chain("start", "t", "end"),
      edge("t", "t")
    ])
    expect(ofCode(problems, "cycle-without-exit")).toMatchObject([
      { severity: "error", nodeId: "t", message: expect.stringContaining("itself") }
    ])
  })

  it("a path that ends inside a loop's body or a parallel's branch ends only the iteration or the branch", () => {
    const problems = validate(
      [
        trigger(),
        node("l", "loop", { over: "[1, 2]" }),
        transform("each", "item"),
        node("p", "parallel"),
        transform("notify", "1"),
        transform("main", "2"),
        output()
      ],
      [
        edge("start", "l"),
        edge("l", "each", "body"),
        edge("l", "p", "done"),
        ...chain("p", "notify"),
        ...chain("p", "main", "end")
      ]
    )
    expect(problems).toEqual([])
  })
})
