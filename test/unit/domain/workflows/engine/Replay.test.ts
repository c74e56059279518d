/**
 * Replay-safety: a run started again from scratch with the results a journal
 * kept takes the same path, asks for the same keys and ends in the same
 * state, and nothing that completed runs twice. The journal here is what a
 * durable engine keeps: completed executions (succeeded or failed with a
 * typed failure) and received payloads; an execution cut short by a crash is
 * not kept, so it runs again.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Data, Effect, Exit, TestClock } from "effect"
import type { JsonValue } from "../../../../../src/domain/Json.js"
import type { NodeResult } from "../../../../../src/domain/workflows/engine/NodeResult.js"
import { runWorkflow } from "../../../../../src/domain/workflows/engine/RunWorkflow.js"
import type { CallContext, WaitResult } from "../../../../../src/domain/workflows/engine/WorkflowHooks.js"
import type { WorkflowRunFailed } from "../../../../../src/domain/workflows/engine/WorkflowRunFailed.js"
import type { WorkflowNode } from "../../../../../src/domain/workflows/WorkflowNode.js"
import { chain, edge, graph, node, received, recordingHooks, trigger } from "./WorkflowFixtures.js"

/** A journal of completed executions and received payloads, as a durable engine keeps them. */
const makeJournal = () => {
  const results = new Map<string, Exit.Exit<NodeResult, WorkflowRunFailed>>()
  const payloads = new Map<string, WaitResult>()
  /** The keys whose execution actually ran (was not answered from the journal). */
  const ran: Array<string> = []
  const execute = (key: string, _node: WorkflowNode, execution: Effect.Effect<NodeResult, WorkflowRunFailed>) =>
    Effect.suspend(() => {
      const stored = results.get(key)
      if (stored !== undefined) return stored
      ran.push(key)
      return Effect.onExit(execution, (exit) =>
        Effect.sync(() => {
          if (Exit.isSuccess(exit) || Cause.isFailType(exit.cause)) results.set(key, exit)
        }))
    })
  return { execute, payloads, ran, results }
}

describe("replay", () => {
  const TOOL = "00000000-0000-4000-8000-000000000001"
  const order = graph([
    trigger([{ name: "skus", type: "array" }]),
    node("stamp", "transform", { expression: "$millis()", outputVariable: "stamp" }),
    node("each", "loop", { over: "input.skus", collect: "vars.stock", outputVariable: "stocks" }),
    node("fetch", "http", { toolId: TOOL, inputMapping: { sku: "item" }, outputVariable: "stock", maxAttempts: 2 }),
    node("fan", "parallel"),
    node("sum", "llm", { prompt: "Summarise {{ vars.stocks }}", outputVariable: "summary" }),
    node("ask", "ai-agent", { agentSlug: "stock-bot", message: "Check {{ vars.stocks }}", outputVariable: "advice" }),
    node("meet", "join"),
    node("approve", "wait", { for: "approval", outputVariable: "decision" }),
    node("done", "output", { format: "json", expression: "vars" })
  ], [
    ...chain("start", "stamp", "each"),
    edge("each", "fetch", "body"),
    edge("fetch", "each"),
    edge("each", "fan", "done"),
    edge("fan", "sum"),
    edge("fan", "ask"),
    edge("sum", "meet"),
    edge("ask", "meet"),
    edge("meet", "approve"),
    edge("approve", "done", "approved")
  ])

  /** Calls out, counting calls per execution key; the HTTP call for `crashOn` crashes the process once. */
  const makeCallouts = (crashOn?: string) => {
    const calls = new Map<string, number>()
    let crashed = false
    const count = (context: CallContext) => calls.set(context.key, (calls.get(context.key) ?? 0) + 1)
    const answer = <A extends JsonValue>(value: A) => (_: unknown, context: CallContext) =>
      Effect.sync(() => {
        count(context)
        return value
      })
    return {
      calls,
      callouts: {
        http: (call: { arguments: { readonly [name: string]: JsonValue } }, context: CallContext) =>
          Effect.suspend(() => {
            count(context)
            if (call.arguments.sku === crashOn && !crashed) {
              crashed = true
              return Effect.dieMessage("the runner was killed")
            }
            return Effect.succeed({ sku: call.arguments.sku!, left: 3 })
          }),
        llm: answer("all in stock"),
        agent: answer({ reorder: false })
      }
    }
  }

  it.effect("a run replayed after a crash runs no completed node again and ends the same", () =>
    Effect.gen(function*() {
      const input = { skus: ["a", "b", "c"] }
      const approve = (journal: ReturnType<typeof makeJournal>) => (key: string) =>
        Effect.sync(() => {
          const payload = journal.payloads.get(key) ?? received({ approved: true })
          journal.payloads.set(key, payload)
          return payload
        })

      // The reference: the same run, never interrupted.
      const reference = makeJournal()
      const clean = recordingHooks({
        callouts: makeCallouts().callouts,
        execute: reference.execute,
        payload: approve(reference)
      })
      const expected = yield* runWorkflow(order, input, clean.hooks)

      // The run crashes in the middle of the loop's second HTTP call...
      const journal = makeJournal()
      const { calls, callouts } = makeCallouts("b")
      const first = recordingHooks({ callouts, execute: journal.execute, payload: approve(journal) })
      const crash = yield* Effect.exit(runWorkflow(order, input, first.hooks))
      expect(Exit.isFailure(crash) && Cause.isDie(crash.cause)).toBe(true)
      const completed = [...journal.results.keys()]
      expect(completed).toEqual(["start#1", "stamp#1", "each#1", "each#1[0]/fetch#1", "each#1[0]:collect"])

      // ...and is started again from scratch an hour later, with its journal.
      yield* TestClock.adjust("1 hour")
      const ranBefore = journal.ran.length
      const second = recordingHooks({ callouts, execute: journal.execute, payload: approve(journal) })
      const resumed = yield* runWorkflow(order, input, second.hooks)

      expect(resumed).toEqual(expected)
      expect(resumed.vars.stamp).toBe(0)
      // The same keys, and only the ones that had not completed ran again.
      expect([...second.recording.keys].sort()).toEqual([...clean.recording.keys].sort())
      const ranAgain = journal.ran.slice(ranBefore)
      expect(ranAgain).toContain("each#1[1]/fetch#1")
      expect(ranAgain.filter((key) => completed.includes(key))).toEqual([])
      // No completed call out ran twice; the one in flight at the crash did (at least once).
      expect(Object.fromEntries(calls)).toEqual({
        "each#1[0]/fetch#1": 1,
        "each#1[1]/fetch#1": 2,
        "each#1[2]/fetch#1": 1,
        "fan#1>fan-next-sum/sum#1": 1,
        "fan#1>fan-next-ask/ask#1": 1
      })
      // The replayed part traced and emitted nothing: only new executions did.
      expect(second.recording.traces.map((trace) => trace.nodeId)).not.toContain("stamp")
      expect([...first.recording.emitted, ...second.recording.emitted]).toEqual(clean.recording.emitted)
    }))

  it.effect("a join waiting for the first branch follows the branch its journal chose", () =>
    Effect.gen(function*() {
      const race = graph([
        trigger(),
        node("fan", "parallel"),
        node("a", "transform", { expression: "'a'", outputVariable: "a" }),
        node("b", "http", { toolId: TOOL, outputVariable: "b" }),
        node("meet", "join", { wait: "first" }),
        node("out", "output", { format: "json", expression: "vars" })
      ], [
        edge("start", "fan"),
        edge("fan", "a"),
        edge("fan", "b"),
        edge("a", "meet"),
        edge("b", "meet"),
        edge("meet", "out")
      ])
      // Before the crash `b` won; on replay `a` (a transform) arrives first.
      const chosen: NodeResult = { output: { branch: "fan-next-b" } }
      let arrivedFirst: JsonValue | undefined
      const { hooks } = recordingHooks({
        callouts: {
          http: () =>
            Effect.gen(function*() {
              for (let i = 0; i < 20; i++) yield* Effect.yieldNow()
              return "B"
            })
        },
        // The journal answers the join with its stored choice; what this run would have chosen is kept aside.
        execute: (key, _node, execution) =>
          key === "meet#1"
            ? execution.pipe(Effect.tap((result) => (arrivedFirst = result.output)), Effect.as(chosen))
            : execution
      })
      const done = yield* runWorkflow(race, {}, hooks)
      expect(arrivedFirst).toEqual({ branch: "fan-next-a" })
      expect(done.vars).toEqual({ b: "B" })
      expect(done.nodes.meet).toEqual({ branch: "fan-next-b" })
    }))
})

/** What the simulator's hook fails with when a wait has no payload yet: the turn ends there. */
class AwaitingTurn extends Data.TaggedError("AwaitingTurn")<{ readonly key: string }> {}

describe("a conversational run (the simulator's shape)", () => {
  const chat = graph([
    trigger(),
    node("hi", "output", { format: "text", template: "Hi!" }),
    node("name", "input", { prompt: "Your name?", variable: "name" }),
    node("age", "input", { prompt: "Your age?", variable: "age", expect: "number" }),
    node("bye", "output", { format: "text", template: "Hello {{ vars.name }}, {{ vars.age }}" })
  ], chain("start", "hi", "name", "age", "bye"))

  it.effect("suspends at each input and resumes on the next turn from its journal", () =>
    Effect.gen(function*() {
      const journal = makeJournal()
      const turn = (message?: string) =>
        Effect.gen(function*() {
          let unread = message
          const { hooks, recording } = recordingHooks<AwaitingTurn>({
            execute: journal.execute,
            payload: (key) =>
              Effect.suspend(() => {
                const stored = journal.payloads.get(key)
                if (stored !== undefined) return Effect.succeed(stored)
                if (unread === undefined) return Effect.fail(new AwaitingTurn({ key }))
                journal.payloads.set(key, received(unread))
                unread = undefined
                return Effect.succeed(journal.payloads.get(key)!)
              })
          })
          const outcome = yield* Effect.either(runWorkflow(chat, {}, hooks))
          return {
            said: recording.emitted.map((output) => output.format === "text" ? output.text : ""),
            ran: recording.traces.map((trace) => `${trace.nodeId}:${trace.status}`),
            outcome
          }
        })

      const opening = yield* turn()
      expect(opening.said).toEqual(["Hi!", "Your name?"])
      expect(opening.outcome).toMatchObject({ _tag: "Left", left: { _tag: "AwaitingTurn", key: "name#1" } })

      const second = yield* turn("Ann")
      expect(second.said).toEqual(["Your age?"])
      expect(second.ran).toEqual(["name:succeeded", "age:waiting"])

      const third = yield* turn("old enough")
      expect(third.said).toEqual(["Your age?"])
      expect(third.outcome).toMatchObject({ _tag: "Left", left: { key: "age#1:ask2" } })

      const last = yield* turn("30")
      expect(last.said).toEqual(["Hello Ann, 30"])
      expect(last.outcome).toMatchObject({ _tag: "Right", right: { vars: { name: "Ann", age: 30 } } })
    }))
})
