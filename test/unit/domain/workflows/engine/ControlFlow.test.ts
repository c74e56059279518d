import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { runWorkflow } from "../../../../../src/domain/workflows/engine/RunWorkflow.js"
import { edge, graph, node, recordingHooks, trigger } from "./WorkflowFixtures.js"

const say = (id: string, text: string) => node(id, "output", { format: "text", template: text })
const texts = (outputs: ReadonlyArray<{ readonly format: string }>) =>
  outputs.map((output) => ("text" in output ? output.text : JSON.stringify(output)))

describe("condition and switch", () => {
  const check = graph([
    trigger([{ name: "total", type: "number" }]),
    node("big", "condition", { expression: "input.total > 100" }),
    say("yes", "big"),
    say("no", "small")
  ], [edge("start", "big"), edge("big", "yes", "true"), edge("big", "no", "false")])

  it.effect("a condition leaves by true or false", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks()
      const big = yield* runWorkflow(check, { total: 150 }, hooks)
      expect(texts(big.outputs)).toEqual(["big"])
      expect(big.nodes.big).toBe(true)
      expect(texts((yield* runWorkflow(check, { total: 5 }, hooks)).outputs)).toEqual(["small"])
    }))

  it.effect("an exit no edge leaves by ends the path", () =>
    Effect.gen(function*() {
      const onlyTrue = graph([trigger(), node("c", "condition", { expression: "false" }), say("yes", "yes")], [
        edge("start", "c"),
        edge("c", "yes", "true")
      ])
      const { hooks, recording } = recordingHooks()
      expect((yield* runWorkflow(onlyTrue, {}, hooks)).outputs).toEqual([])
      expect(recording.keys).toEqual(["start#1", "c#1"])
    }))

  const route = graph([
    trigger([{ name: "kind", type: "string" }]),
    node("which", "switch", {
      expression: "input.kind",
      cases: [{ name: "refund", value: "refund" }, { name: "one", value: 1 }, { name: "again", value: "refund" }]
    }),
    say("r", "refund"),
    say("o", "one"),
    say("a", "again"),
    say("d", "default")
  ], [
    edge("start", "which"),
    edge("which", "r", "refund"),
    edge("which", "o", "one"),
    edge("which", "a", "again"),
    edge("which", "d", "default")
  ])

  it.effect("a switch leaves by the first equal case, else by default (strict equality)", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks()
      expect(texts((yield* runWorkflow(route, { kind: "refund" }, hooks)).outputs)).toEqual(["refund"])
      expect(texts((yield* runWorkflow(route, { kind: "1" }, hooks)).outputs)).toEqual(["default"])
      expect(texts((yield* runWorkflow(route, { kind: "other" }, hooks)).outputs)).toEqual(["default"])
    }))

  it.effect("two edges from one exit are not runnable", () =>
    Effect.gen(function*() {
      const forked = graph([trigger(), say("a", "a"), say("b", "b")], [edge("start", "a"), edge("start", "b")])
      const { hooks } = recordingHooks()
      expect(yield* runWorkflow(forked, {}, hooks).pipe(Effect.flip)).toMatchObject({
        code: "not-runnable",
        nodeId: "start"
      })
    }))
})

describe("loop", () => {
  const loop = (data: object) =>
    graph([
      trigger([{ name: "lines", type: "array" }]),
      node("each", "loop", { over: "input.lines", ...data }),
      node("price", "transform", { expression: "item.qty * item.unit", outputVariable: "last" }),
      say("line", "{{ index }}: {{ vars.last }}"),
      say("total", "total {{ vars.prices }} after {{ vars.last }}")
    ], [
      edge("start", "each"),
      edge("each", "price", "body"),
      edge("price", "line"),
      edge("line", "each"),
      edge("each", "total", "done")
    ])
  const lines = [{ qty: 2, unit: 5 }, { qty: 1, unit: 7 }, { qty: 3, unit: 1 }]

  it.effect("runs the body once per item with item and index, collects, then leaves by done", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks()
      const done = yield* runWorkflow(loop({ collect: "vars.last", outputVariable: "prices" }), { lines }, hooks)
      expect(texts(done.outputs)).toEqual(["0: 10", "1: 7", "2: 3", "total [10,7,3] after 3"])
      expect(done.vars).toEqual({ last: 3, prices: [10, 7, 3] })
      expect(done.nodes.each).toEqual([10, 7, 3])
      expect(recording.keys).toEqual([
        "start#1",
        "each#1",
        "each#1[0]/price#1",
        "each#1[0]/line#1",
        "each#1[0]:collect",
        "each#1[1]/price#1",
        "each#1[1]/line#1",
        "each#1[1]:collect",
        "each#1[2]/price#1",
        "each#1[2]/line#1",
        "each#1[2]:collect",
        "total#1"
      ].flatMap((key) => key === "total#1" ? ["each#1:done", key] : [key]))
      const priceTraces = recording.traces.filter((trace) => trace.nodeId === "price")
      expect(priceTraces.map((trace) => trace.iteration)).toEqual([0, 1, 2])
      expect(recording.traces.find((trace) => trace.nodeId === "total")?.iteration).toBeUndefined()
    }))

  it.effect("without collect, stores the items it ran over; no items skip the body", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks()
      const done = yield* runWorkflow(loop({ outputVariable: "prices" }), { lines: lines.slice(0, 1) }, hooks)
      expect(done.vars.prices).toEqual(lines.slice(0, 1))
      const empty = yield* runWorkflow(loop({ outputVariable: "prices" }), { lines: [] }, hooks)
      expect(empty.vars).toEqual({ prices: [] })
    }))

  it.effect("refuses more items than maxIterations with a typed failure", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks()
      const error = yield* runWorkflow(loop({ maxIterations: 2 }), { lines }, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "max-iterations", nodeId: "each" })
      expect(error.message).toBe("3 items, more than the loop's 2 iterations")
      expect(recording.keys).toEqual(["start#1", "each#1"])
    }))

  it.effect("nests: an inner loop's keys sit inside the outer iteration's scope", () =>
    Effect.gen(function*() {
      const nested = graph([
        trigger(),
        node("rows", "loop", { over: "[[1, 2], [3]]", collect: "vars.row", outputVariable: "sums" }),
        node("keep", "transform", { expression: "item", outputVariable: "cells" }),
        node("cells", "loop", { over: "vars.cells", collect: "item * 10", outputVariable: "row" })
      ], [
        edge("start", "rows"),
        edge("rows", "keep", "body"),
        edge("keep", "cells"),
        edge("cells", "rows", "done")
      ])
      const { hooks, recording } = recordingHooks()
      const done = yield* runWorkflow(nested, {}, hooks)
      expect(done.vars.sums).toEqual([[10, 20], [30]])
      expect(recording.keys).toContain("rows#1[0]/cells#1[1]:collect")
      expect(recording.keys).toContain("rows#1[1]/cells#1:done")
      expect(new Set(recording.keys).size).toBe(recording.keys.length)
    }))
})

describe("parallel and join", () => {
  const fanOut = (wait: "all" | "first", maxConcurrency?: number) =>
    graph([
      trigger(),
      node("fan", "parallel", maxConcurrency === undefined ? {} : { maxConcurrency }),
      node("a", "http", { toolId: "00000000-0000-4000-8000-00000000000a", outputVariable: "a" }),
      node("b", "http", { toolId: "00000000-0000-4000-8000-00000000000b", outputVariable: "b" }),
      node("c", "transform", { expression: "'c'", outputVariable: "c" }),
      node("shared", "transform", { expression: "'from ' & $string(nodes.c ? 'c' : 'b')", outputVariable: "shared" }),
      node("meet", "join", { wait }),
      node("out", "output", { format: "json", expression: "vars" })
    ], [
      edge("start", "fan"),
      edge("fan", "a"),
      edge("fan", "b"),
      edge("fan", "c"),
      edge("a", "meet"),
      edge("b", "shared"),
      edge("shared", "meet"),
      edge("c", "meet"),
      edge("meet", "out")
    ])

  it.effect("all: every branch runs (at most maxConcurrency at once), changes merge in edge order", () =>
    Effect.gen(function*() {
      let running = 0
      let most = 0
      const http = (call: { toolId: string }) =>
        Effect.gen(function*() {
          running++
          most = Math.max(most, running)
          for (let i = 0; i < 5; i++) yield* Effect.yieldNow()
          running--
          return call.toolId.slice(-1)
        })
      for (const [limit, expected] of [[undefined, 2], [1, 1]] as const) {
        running = most = 0
        const { hooks, recording } = recordingHooks({ callouts: { http } })
        const done = yield* runWorkflow(fanOut("all", limit), {}, hooks)
        expect(done.vars).toEqual({ a: "a", b: "b", c: "c", shared: "from b" })
        expect(done.nodes.meet).toEqual({ branches: ["fan-next-a", "fan-next-b", "fan-next-c"] })
        expect(most).toBe(expected)
        expect([...recording.keys].sort()).toEqual([
          "fan#1",
          "fan#1>fan-next-a/a#1",
          "fan#1>fan-next-b/b#1",
          "fan#1>fan-next-b/shared#1",
          "fan#1>fan-next-c/c#1",
          "meet#1",
          "out#1",
          "start#1"
        ])
      }
    }))

  it.effect("all: a failing branch fails the run once the others have settled", () =>
    Effect.gen(function*() {
      let settled = false
      const { hooks } = recordingHooks({
        callouts: {
          http: (call: { toolId: string }) =>
            call.toolId.endsWith("a")
              ? Effect.fail({ _tag: "CalloutFailure", message: "down" } as never)
              : Effect.sync(() => {
                settled = true
                return "b"
              })
        }
      })
      const error = yield* runWorkflow(fanOut("all"), {}, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "call-failed", nodeId: "a", message: "down" })
      expect(settled).toBe(true)
    }))

  it.effect("first: the first branch to reach the join wins, the others are interrupted", () =>
    Effect.gen(function*() {
      let interrupted = 0
      const { hooks, recording } = recordingHooks({
        callouts: {
          // Under the test clock neither call ever answers: `c`, a plain transform, arrives first.
          http: () =>
            Effect.sleep("1 second").pipe(Effect.as("late"), Effect.onInterrupt(() => Effect.sync(() => interrupted++)))
        }
      })
      const done = yield* runWorkflow(fanOut("first"), {}, hooks)
      expect(interrupted).toBe(2)
      expect(done.nodes.meet).toEqual({ branch: "fan-next-c" })
      expect(done.vars).toEqual({ c: "c" })
      expect(recording.keys).toContain("meet#1")
      expect(recording.traces.filter((trace) => trace.nodeId === "a" || trace.nodeId === "b")).toEqual([])
    }))

  it.effect("branches that meet at different joins are not runnable", () =>
    Effect.gen(function*() {
      const split = graph([
        trigger(),
        node("fan", "parallel"),
        node("j1", "join"),
        node("j2", "join")
      ], [edge("start", "fan"), edge("fan", "j1"), edge("fan", "j2")])
      const { hooks } = recordingHooks()
      expect(yield* runWorkflow(split, {}, hooks).pipe(Effect.flip)).toMatchObject({
        code: "not-runnable",
        nodeId: "fan"
      })
    }))

  it.effect("a parallel nested in a branch meets at its own join; the outer branch goes on to the outer join", () =>
    Effect.gen(function*() {
      const nested = graph([
        trigger(),
        node("outer", "parallel"),
        node("inner", "parallel"),
        say("x", "x"),
        say("y", "y"),
        node("innerJoin", "join"),
        say("b", "b"),
        node("outerJoin", "join"),
        say("end", "end")
      ], [
        edge("start", "outer"),
        edge("outer", "inner"),
        edge("inner", "x"),
        edge("inner", "y"),
        edge("x", "innerJoin"),
        edge("y", "innerJoin"),
        edge("innerJoin", "outerJoin"),
        edge("outer", "b"),
        edge("b", "outerJoin"),
        edge("outerJoin", "end")
      ])
      const { hooks } = recordingHooks()
      // The validator's `parallel-joins-apart` reads this graph the same way (validation/Branches.test.ts).
      expect(texts((yield* runWorkflow(nested, {}, hooks)).outputs)).toEqual(["x", "y", "b", "end"])
    }))

  it.effect("branches without a join end the run when all have ended", () =>
    Effect.gen(function*() {
      const ends = graph([trigger(), node("fan", "parallel"), say("x", "x"), say("y", "y")], [
        edge("start", "fan"),
        edge("fan", "y"),
        edge("fan", "x")
      ])
      const { hooks } = recordingHooks()
      // Outputs are in edge order, whatever the order they were emitted in.
      expect(texts((yield* runWorkflow(ends, {}, hooks)).outputs)).toEqual(["y", "x"])
    }))
})
