import { describe, expect, it } from "@effect/vitest"
import { chain, condition, edge, node, ofCode, output, transform, trigger, validate } from "./WorkflowFixtures.js"

describe("variables read before they are set", () => {
  it("set on one branch of a condition only: a warning at the read", () => {
    const problems = validate(
      [trigger(), condition("c", "true"), transform("x", "1"), transform("read", "vars.x + 1"), output()],
      [edge("start", "c"), edge("c", "x", "true"), edge("c", "read", "false"), ...chain("x", "read", "end")]
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([
      { severity: "warning", nodeId: "read", field: "data.expression", message: expect.stringContaining("some paths") }
    ])
  })

  it("set only after the read: an error naming the writer", () => {
    const problems = validate(
      [trigger(), transform("read", "vars.x"), transform("x", "1"), output()],
      chain("start", "read", "x", "end")
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([
      { severity: "error", nodeId: "read", message: expect.stringContaining("set by x") }
    ])
  })

  it("set on a concurrent branch: an error (there is no order between branches)", () => {
    const problems = validate(
      [trigger(), node("p", "parallel"), transform("x", "1"), transform("read", "vars.x"), node("j", "join"), output()],
      [...chain("start", "p", "x", "j", "end"), ...chain("p", "read", "j")]
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([{ severity: "error", nodeId: "read" }])
  })

  it("after a join that waits for all its branches, what every branch set is set", () => {
    const problems = validate(
      [
        trigger(),
        node("p", "parallel"),
        transform("a", "1"),
        transform("b", "2"),
        node("j", "join"),
        output("end", "vars.a + vars.b")
      ],
      [...chain("start", "p", "a", "j", "end"), ...chain("p", "b", "j")]
    )
    expect(ofCode(problems, "variable-before-set")).toEqual([])
  })

  it("after a join that waits for the first branch, a branch's variable is only possibly set", () => {
    const problems = validate(
      [
        trigger(),
        node("p", "parallel"),
        transform("a", "1"),
        transform("b", "2"),
        node("j", "join", { wait: "first" }),
        output("end", "vars.a")
      ],
      [...chain("start", "p", "a", "j", "end"), ...chain("p", "b", "j")]
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([{ severity: "warning", nodeId: "end" }])
  })

  it("a failed call writes no variable: reading it on the error route is an error; its output in nodes is there", () => {
    const http = node("call", "http", {
      toolId: "5b0c9a70-3a55-4f51-9d2c-6f0d4cfc1a01",
      outputVariable: "reply",
      onError: "route"
    })
    const problems = validate(
      [trigger(), http, output("ok", "vars.reply"), output("failed", "[vars.reply, nodes.call]")],
      [...chain("start", "call", "ok"), edge("call", "failed", "error")]
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([
      { severity: "error", nodeId: "failed", message: expect.stringContaining("vars.reply") }
    ])
  })

  it("a node's output read before the node runs is an error", () => {
    const problems = validate(
      [trigger(), transform("read", "nodes.later"), transform("later", "1"), output()],
      chain("start", "read", "later", "end")
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([
      { severity: "error", nodeId: "read", message: expect.stringContaining("nodes.later") }
    ])
  })

  it("$exists tests whether a variable is set and is never reported", () => {
    const problems = validate(
      [
        trigger(),
        transform("read", "$exists(vars.x) ? vars.y : 0"),
        transform("x", "1"),
        transform("y", "2"),
        output()
      ],
      chain("start", "read", "x", "y", "end")
    )
    expect(ofCode(problems, "variable-before-set").map((p) => p.message)).toEqual([expect.stringContaining("vars.y")])
  })

  it("in a loop: the body's variables are possibly set after it, certainly in collect, and not at all in over", () => {
    const problems = validate(
      [
        trigger(),
        node("l", "loop", { over: "vars.line ? [1] : [2]", collect: "vars.line", outputVariable: "lines" }),
        transform("line", "item"),
        output("end", "[vars.line, vars.lines]")
      ],
      [edge("start", "l"), edge("l", "line", "body"), edge("line", "l"), edge("l", "end", "done")]
    )
    expect(ofCode(problems, "variable-before-set")).toMatchObject([
      { severity: "error", nodeId: "l", field: "data.over" },
      { severity: "warning", nodeId: "end", message: expect.stringContaining("vars.line`") }
    ])
  })

  it("nodes no run reaches are not checked", () => {
    const problems = validate(
      [trigger(), transform("x", "1"), transform("orphan", "vars.x"), output()],
      chain("start", "x", "end")
    )
    expect(ofCode(problems, "variable-before-set")).toEqual([])
  })
})
