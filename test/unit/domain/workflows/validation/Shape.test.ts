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

describe("triggers and outputs", () => {
  it("a graph without a trigger is an error of the whole graph", () => {
    const problems = validate([output()], [])
    expect(ofCode(problems, "no-trigger")).toEqual([
      { severity: "error", code: "no-trigger", message: expect.stringContaining("no trigger") }
    ])
    expect(problems[0]!.code).toBe("no-trigger")
  })

  it("a second trigger is an error on that trigger", () => {
    const problems = validate([trigger("a"), trigger("b"), output()], [...chain("a", "end"), ...chain("b", "end")])
    expect(ofCode(problems, "several-triggers")).toMatchObject([{ severity: "error", nodeId: "b" }])
  })

  it("a graph without an output is an error of the whole graph", () => {
    const problems = validate([trigger(), transform("t", "1")], chain("start", "t"))
    expect(ofCode(problems, "no-output")).toMatchObject([{ severity: "error" }])
    expect(ofCode(problems, "no-output")[0]!.nodeId).toBeUndefined()
  })
})

describe("dangling edges", () => {
  it("an edge to a node that does not exist is an error on the edge, placed at its source", () => {
    const problems = validate([trigger(), output()], [...chain("start", "end"), edge("end", "ghost")])
    expect(ofCode(problems, "dangling-edge")).toMatchObject([
      { severity: "error", nodeId: "end", edgeId: "end_to_ghost", message: expect.stringContaining("`ghost`") }
    ])
  })

  it("an edge between two missing nodes has no node", () => {
    const problems = validate([trigger(), output()], [...chain("start", "end"), edge("x", "y")])
    const [dangling] = ofCode(problems, "dangling-edge")
    expect(dangling).toMatchObject({ severity: "error", edgeId: "x_to_y" })
    expect(dangling!.nodeId).toBeUndefined()
  })
})

describe("unknown handles", () => {
  const branches = [edge("start", "c"), edge("c", "end", "true"), edge("c", "end", "false")]

  it("a condition left by a handle it does not have is an error naming its exits", () => {
    const problems = validate([trigger(), condition("c", "true"), output()], [...branches, edge("c", "end", "maybe")])
    expect(ofCode(problems, "unknown-handle")).toMatchObject([
      { severity: "error", nodeId: "c", edgeId: "c_maybe_end", message: expect.stringContaining("`true` and `false`") }
    ])
  })

  it("a condition left without a handle, and a single-exit node left by one, are errors", () => {
    const problems = validate(
      [trigger(), condition("c", "true"), transform("t", "1"), output()],
      [...branches, edge("c", "t"), edge("start", "t", "next"), edge("t", "end")]
    )
    // In the graph's node order: the trigger first.
    expect(ofCode(problems, "unknown-handle").map((p) => [p.nodeId, p.edgeId])).toEqual([
      ["start", "start_next_t"],
      ["c", "c_to_t"]
    ])
  })

  it("an error edge from a node whose onError is fail is an error on data.onError", () => {
    const http = node("call", "http", { toolId: TOOL_ID, outputVariable: "r" })
    const problems = validate([trigger(), http, output()], [
      ...chain("start", "call", "end"),
      edge("call", "end", "error")
    ])
    expect(ofCode(problems, "unknown-handle")).toMatchObject([
      { severity: "error", nodeId: "call", field: "data.onError", edgeId: "call_error_end" }
    ])
  })

  it("a timeout edge needs timeoutSeconds, and a duration wait has none", () => {
    const approval = node("ok", "wait", { for: "approval" })
    const timed = node("timed", "wait", { for: "approval", timeoutSeconds: 60 })
    const pause = node("pause", "wait", { for: "duration", seconds: 5 })
    const problems = validate(
      [trigger(), approval, timed, pause, output()],
      [
        edge("start", "ok"),
        edge("ok", "timed", "approved"),
        edge("ok", "end", "rejected"),
        edge("ok", "end", "timeout"),
        edge("timed", "pause", "approved"),
        edge("timed", "end", "rejected"),
        edge("timed", "end", "timeout"),
        edge("pause", "end"),
        edge("pause", "end", "timeout")
      ]
    )
    expect(ofCode(problems, "unknown-handle")).toMatchObject([
      { nodeId: "ok", edgeId: "ok_timeout_end", field: "data.timeoutSeconds" },
      { nodeId: "pause", edgeId: "pause_timeout_end" }
    ])
  })

  it("switch cases, default, loop exits and an input's timeout are known handles", () => {
    const problems = validate(
      [
        trigger(),
        node("s", "switch", { expression: "1", cases: [{ name: "one", value: 1 }] }),
        node("l", "loop", { over: "[1, 2]" }),
        transform("t", "item"),
        node("ask", "input", { variable: "answer", timeoutSeconds: 30 }),
        output()
      ],
      [
        edge("start", "s"),
        edge("s", "l", "one"),
        edge("s", "end", "default"),
        edge("l", "t", "body"),
        edge("t", "l"),
        edge("l", "ask", "done"),
        edge("ask", "end"),
        edge("ask", "end", "timeout")
      ]
    )
    expect(ofCode(problems, "unknown-handle")).toEqual([])
  })

  it("two edges on one exit of a node that is not a parallel are an error on the second (the run fails there)", () => {
    const problems = validate(
      [trigger(), condition("c", "vars.x"), transform("x", "1"), transform("y", "2"), node("p", "parallel"), output()],
      [
        ...chain("start", "x", "c"),
        edge("c", "y", "true"),
        edge("c", "end", "true"),
        edge("c", "end", "false"),
        ...chain("y", "p", "end"),
        edge("p", "x")
      ]
    )
    expect(ofCode(problems, "unknown-handle")).toMatchObject([
      {
        severity: "error",
        nodeId: "c",
        edgeId: "c_true_end",
        message: expect.stringContaining("c_true_y and c_true_end")
      }
    ])
  })
})
