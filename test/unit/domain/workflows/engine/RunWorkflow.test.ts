import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { MAX_NODE_EXECUTIONS, runWorkflow } from "../../../../../src/domain/workflows/engine/RunWorkflow.js"
import { chain, edge, graph, node, recordingHooks, trigger } from "./WorkflowFixtures.js"

describe("runWorkflow: input, transforms and outputs", () => {
  const greeting = graph([
    trigger([
      { name: "name", type: "string" },
      { name: "count", type: "number", required: false, default: 2 },
      { name: "tags", type: "array", required: false }
    ]),
    node("shout", "transform", { expression: "$uppercase(input.name)", outputVariable: "loud" }),
    node("say", "output", { format: "text", template: "Hello {{ vars.loud }} x{{input.count}}{{ input.tags }}!" }),
    node("data", "output", { format: "json", expression: "{ 'name': vars.loud, 'twice': input.count * 2 }" })
  ], chain("start", "shout", "say", "data"))

  it.effect("checks the input, applies defaults, and emits outputs in order", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks()
      const done = yield* runWorkflow(greeting, { name: "ann", extra: true }, hooks)
      expect(done.vars).toEqual({ loud: "ANN" })
      expect(done.nodes).toMatchObject({ start: { name: "ann", count: 2, extra: true }, shout: "ANN" })
      expect(done.outputs).toEqual([
        { nodeId: "say", format: "text", text: "Hello ANN x2!" },
        { nodeId: "data", format: "json", value: { name: "ANN", twice: 4 } }
      ])
      expect(recording.emitted).toEqual(done.outputs)
      expect(recording.keys).toEqual(["start#1", "shout#1", "say#1", "data#1"])
      expect(recording.traces.map((trace) => [trace.nodeId, trace.status])).toEqual([
        ["start", "succeeded"],
        ["shout", "succeeded"],
        ["say", "succeeded"],
        ["data", "succeeded"]
      ])
      expect(recording.traces[1]!.output).toBe("ANN")
    }))

  it.effect("refuses an input that does not match the trigger, naming every problem", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks()
      const error = yield* runWorkflow(greeting, { count: "two", tags: {} }, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "WorkflowRunFailed", code: "invalid-input", nodeId: "start" })
      expect(error.message).toBe("invalid input: name is required; count must be a number; tags must be a array")
      expect(recording.keys).toEqual([])
      const notAnObject = yield* runWorkflow(greeting, [1], hooks).pipe(Effect.flip)
      expect(notAnObject.code).toBe("invalid-input")
    }))

  it.effect("takes any input when the trigger declares none", () =>
    Effect.gen(function*() {
      const echo = graph(
        [trigger(), node("out", "output", { format: "json", expression: "input" })],
        chain("start", "out")
      )
      const { hooks } = recordingHooks()
      expect((yield* runWorkflow(echo, [1, 2], hooks)).outputs).toEqual([{
        nodeId: "out",
        format: "json",
        value: [1, 2]
      }])
      expect((yield* runWorkflow(echo, undefined, hooks)).outputs).toEqual([{
        nodeId: "out",
        format: "json",
        value: {}
      }])
    }))

  it.effect("fails as not runnable without exactly one trigger, or along an edge to a missing node", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks()
      const none = yield* runWorkflow(
        graph([node("t", "transform", { expression: "1", outputVariable: "x" })], []),
        {},
        hooks
      )
        .pipe(Effect.flip)
      expect(none).toMatchObject({ code: "not-runnable", message: "the workflow has no trigger" })
      const two = yield* runWorkflow(graph([trigger(), { ...trigger(), id: "again" }], []), {}, hooks).pipe(Effect.flip)
      expect(two).toMatchObject({ code: "not-runnable", nodeId: "again" })
      const dangling = yield* runWorkflow(graph([trigger()], [edge("start", "nowhere")]), {}, hooks).pipe(Effect.flip)
      expect(dangling).toMatchObject({ code: "not-runnable", nodeId: "start" })
      expect(dangling.message).toContain("nowhere")
    }))
})

describe("runWorkflow: expression failures", () => {
  const failing = (expression: string) =>
    graph([trigger(), node("calc", "transform", { expression, outputVariable: "x" })], chain("start", "calc"))

  it.effect("are typed failures at the node, traced as failed, never defects", () =>
    Effect.gen(function*() {
      for (const expression of ["$error('boom')", "vars.x +", "$undefinedFunction()", "$count([1..100000])"]) {
        const { hooks, recording } = recordingHooks()
        const error = yield* runWorkflow(failing(expression), {}, hooks).pipe(Effect.flip)
        expect(error).toMatchObject({ _tag: "WorkflowRunFailed", code: "expression-error", nodeId: "calc" })
        expect(recording.traces.at(-1)).toMatchObject({ nodeId: "calc", status: "failed", error: error.message })
      }
      const { hooks } = recordingHooks()
      expect((yield* runWorkflow(failing("$error('boom')"), {}, hooks).pipe(Effect.flip)).message).toContain("boom")
    }))

  it.effect("in a template's placeholder fail the node too, as does a placeholder never closed", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks()
      const saying = (template: string) =>
        graph([trigger(), node("say", "output", { format: "text", template })], chain("start", "say"))
      expect(yield* runWorkflow(saying("a {{ 1 + }} b"), {}, hooks).pipe(Effect.flip)).toMatchObject({
        code: "expression-error",
        nodeId: "say"
      })
      expect(yield* runWorkflow(saying("a {{ 1 + 1 b"), {}, hooks).pipe(Effect.flip)).toMatchObject({
        code: "expression-error",
        nodeId: "say"
      })
      // Placeholders split as validate-publish splits them: braces and strings inside do not close one.
      const done = yield* runWorkflow(saying("{{ {'a': {'b': '}}'}} }} and }} {{ null }}."), {}, hooks)
      expect(done.outputs).toEqual([{ nodeId: "say", format: "text", text: "{\"a\":{\"b\":\"}}\"}} and }} ." }])
    }))
})

describe("runWorkflow: the node limit", () => {
  // A cycle no loop bounds: the validator refuses it, a draft may still hold it.
  const spinning = graph([
    trigger(),
    node("tick", "transform", { expression: "($exists(vars.n) ? vars.n : 0) + 1", outputVariable: "n" }),
    node("again", "condition", { expression: "true" })
  ], [...chain("start", "tick", "again"), edge("again", "tick", "true")])

  it.effect("stops a run at its limit of node executions with a typed failure", () =>
    Effect.gen(function*() {
      expect(MAX_NODE_EXECUTIONS).toBe(10_000)
      const { hooks, recording } = recordingHooks()
      const error = yield* runWorkflow(spinning, {}, hooks, { maxNodeExecutions: 25 }).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "max-iterations", nodeId: "tick" })
      expect(error.message).toBe("the run reached its limit of 25 node executions")
      expect(recording.keys).toHaveLength(25)
      expect(recording.keys.slice(0, 5)).toEqual(["start#1", "tick#1", "again#1", "tick#2", "again#2"])
    }))
})
