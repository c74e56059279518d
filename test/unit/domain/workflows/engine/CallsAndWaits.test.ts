import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { MAX_INPUT_ASKS, runWorkflow } from "../../../../../src/domain/workflows/engine/RunWorkflow.js"
import { type CallContext, CalloutFailure } from "../../../../../src/domain/workflows/engine/WorkflowHooks.js"
import { answers, chain, edge, graph, node, received, recordingHooks, trigger } from "./WorkflowFixtures.js"

const TOOL = "00000000-0000-4000-8000-000000000001"
const say = (id: string, text: string) => node(id, "output", { format: "text", template: text })
const texts = (outputs: ReadonlyArray<{ readonly format: string }>) =>
  outputs.map((output) => ("text" in output ? output.text : JSON.stringify(output)))

describe("calls out", () => {
  it.effect("llm and ai-agent calls get their templates rendered and their mapping evaluated", () =>
    Effect.gen(function*() {
      const calls: Array<unknown> = []
      const contexts: Array<CallContext> = []
      const flow = graph([
        trigger([{ name: "ticket", type: "string" }]),
        node("sum", "llm", {
          system: "You summarise.",
          prompt: "Summarise: {{ input.ticket }}",
          temperature: 0.2,
          outputVariable: "summary"
        }),
        node("ask", "ai-agent", {
          agentSlug: "support-bot",
          message: "Handle {{ vars.summary }}",
          inputMapping: { ticket: "input.ticket", length: "$length(vars.summary)" },
          outputVariable: "reply"
        })
      ], chain("start", "sum", "ask"))
      const { hooks } = recordingHooks({
        callouts: {
          llm: (call, context) =>
            Effect.sync(() => {
              calls.push(call)
              contexts.push(context)
              return "short"
            }),
          agent: (call) =>
            Effect.sync(() => {
              calls.push(call)
              // A sloppy callout: the run keeps JSON only.
              return { text: "done", extra: undefined } as never
            })
        }
      })
      const done = yield* runWorkflow(flow, { ticket: "printer on fire" }, hooks)
      expect(calls).toEqual([
        {
          model: undefined,
          system: "You summarise.",
          prompt: "Summarise: printer on fire",
          temperature: 0.2,
          maxOutputTokens: undefined,
          outputSchema: undefined
        },
        { agentSlug: "support-bot", message: "Handle short", context: { ticket: "printer on fire", length: 5 } }
      ])
      expect(contexts).toEqual([{ nodeId: "sum", key: "sum#1", attempt: 1 }])
      expect(done.vars).toStrictEqual({ summary: "short", reply: { text: "done" } })
    }))

  const calling = (data: object, withErrorEdge = true) =>
    graph([
      trigger(),
      node("call", "http", { toolId: TOOL, inputMapping: { id: "42" }, outputVariable: "result", ...data }),
      say("ok", "ok {{ vars.result }}"),
      say("oops", "oops: {{ nodes.call.error }} after {{ nodes.call.attempts }}")
    ], [edge("start", "call"), edge("call", "ok"), ...(withErrorEdge ? [edge("call", "oops", "error")] : [])])

  /** An HTTP tool that fails its first `failures` calls. */
  const flaky = (failures: number) => {
    const attempts: Array<number> = []
    const http = (call: { arguments: unknown }, context: CallContext) =>
      Effect.suspend(() => {
        attempts.push(context.attempt)
        expect(call.arguments).toEqual({ id: 42 })
        return attempts.length <= failures
          ? Effect.fail(new CalloutFailure({ message: `down ${attempts.length}` }))
          : Effect.succeed("fine")
      })
    return { attempts, http }
  }

  it.effect("retries up to maxAttempts, counting attempts from 1 under one key", () =>
    Effect.gen(function*() {
      const { attempts, http } = flaky(2)
      const { hooks, recording } = recordingHooks({ callouts: { http } })
      const done = yield* runWorkflow(calling({ maxAttempts: 3 }), {}, hooks)
      expect(texts(done.outputs)).toEqual(["ok fine"])
      expect(attempts).toEqual([1, 2, 3])
      expect(recording.keys.filter((key) => key.startsWith("call"))).toEqual(["call#1"])
    }))

  it.effect("onError route leaves by error with the last failure once the attempts are spent", () =>
    Effect.gen(function*() {
      const { attempts, http } = flaky(5)
      const { hooks, recording } = recordingHooks({ callouts: { http } })
      const done = yield* runWorkflow(calling({ maxAttempts: 2, onError: "route" }), {}, hooks)
      expect(attempts).toEqual([1, 2])
      expect(texts(done.outputs)).toEqual(["oops: down 2 after 2"])
      expect(done.vars).toEqual({})
      expect(recording.traces.find((trace) => trace.nodeId === "call")?.status).toBe("succeeded")
    }))

  it.effect("onError fail (the default) fails the run with call-failed at the node", () =>
    Effect.gen(function*() {
      const { attempts, http } = flaky(5)
      const { hooks, recording } = recordingHooks({ callouts: { http } })
      const error = yield* runWorkflow(calling({ maxAttempts: 3 }), {}, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "call-failed", nodeId: "call", message: "down 3 (3 attempts)" })
      expect(attempts).toEqual([1, 2, 3])
      expect(recording.traces.at(-1)).toMatchObject({ nodeId: "call", status: "failed", error: error.message })
    }))

  it.effect("onError route without an error edge fails as onError fail does", () =>
    Effect.gen(function*() {
      const { http } = flaky(1)
      const { hooks } = recordingHooks({ callouts: { http } })
      const error = yield* runWorkflow(calling({ onError: "route" }, false), {}, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "call-failed", nodeId: "call", message: "down 1" })
    }))
})

describe("wait", () => {
  const approval = (withTimeout = true) =>
    graph([
      trigger([{ name: "amount", type: "number" }]),
      node("approve", "wait", {
        for: "approval",
        prompt: "Approve {{ input.amount }}?",
        outputVariable: "decision",
        timeoutSeconds: 3600
      }),
      say("yes", "approved: {{ vars.decision.comment }}"),
      say("no", "rejected"),
      say("late", "nobody answered")
    ], [
      edge("start", "approve"),
      edge("approve", "yes", "approved"),
      edge("approve", "no", "rejected"),
      ...(withTimeout ? [edge("approve", "late", "timeout")] : [])
    ])

  it.effect("an approval waits with its prompt, then leaves by approved or rejected and stores the decision", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks({ payload: answers(received({ approved: true, comment: "ok" })) })
      const done = yield* runWorkflow(approval(), { amount: 120 }, hooks)
      expect(texts(done.outputs)).toEqual(["approved: ok"])
      expect(done.vars).toEqual({ decision: { approved: true, comment: "ok" } })
      expect(recording.waits).toEqual([{
        key: "approve#1",
        request: expect.objectContaining({
          wait: { kind: "approval", nodeId: "approve", prompt: "Approve 120?" },
          timeoutSeconds: 3600
        })
      }])
      expect(recording.keys).toEqual(["start#1", "approve#1", "approve#1:resume", "yes#1"])
      expect(recording.traces.filter((trace) => trace.nodeId === "approve").map((trace) => trace.status)).toEqual([
        "waiting",
        "succeeded"
      ])
      // A wait's prompt is for the approver, not an output of the run.
      expect(recording.emitted).toEqual(done.outputs)

      const rejected = recordingHooks({ payload: answers(received({ approved: false })) })
      expect(texts((yield* runWorkflow(approval(), { amount: 1 }, rejected.hooks)).outputs)).toEqual(["rejected"])
    }))

  it.effect("a time-out leaves by timeout, or fails with code timeout when no edge leaves by it", () =>
    Effect.gen(function*() {
      const timedOut = () => Effect.succeed({ _tag: "TimedOut" } as const)
      const { hooks } = recordingHooks({ payload: timedOut })
      expect(texts((yield* runWorkflow(approval(), { amount: 1 }, hooks)).outputs)).toEqual(["nobody answered"])
      const error = yield* runWorkflow(approval(false), { amount: 1 }, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "timeout", nodeId: "approve" })
    }))

  it.effect("a payload that is not an approval decision is invalid input", () =>
    Effect.gen(function*() {
      const { hooks } = recordingHooks({ payload: answers(received({ approved: "yes" })) })
      const error = yield* runWorkflow(approval(), { amount: 1 }, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "invalid-input", nodeId: "approve" })
    }))

  it.effect("an event wait stores the event's data; a duration sleeps through the hook", () =>
    Effect.gen(function*() {
      const flow = graph([
        trigger(),
        node("pause", "wait", { for: "duration", seconds: 90 }),
        node("paid", "wait", { for: "event", event: "invoice.paid", outputVariable: "invoice" }),
        say("out", "paid {{ vars.invoice.total }}")
      ], chain("start", "pause", "paid", "out"))
      const { hooks, recording } = recordingHooks({ payload: answers(received({ total: 30 })) })
      const done = yield* runWorkflow(flow, {}, hooks)
      expect(texts(done.outputs)).toEqual(["paid 30"])
      expect(recording.sleeps).toEqual([{ key: "pause#1", seconds: 90 }])
      expect(recording.waits.map(({ key, request }) => [key, request.wait])).toEqual([
        ["paid#1", { kind: "event", nodeId: "paid", event: "invoice.paid" }]
      ])
    }))
})

describe("input", () => {
  const asking = (expect: string) =>
    graph([
      trigger(),
      node("qty", "input", { prompt: "How many?", variable: "qty", expect, timeoutSeconds: 60 }),
      node("out", "output", { format: "json", expression: "vars.qty" })
    ], chain("start", "qty", "out"))

  it.effect("emits its prompt, waits, and stores the answer read by expect", () =>
    Effect.gen(function*() {
      const cases = [
        ["number", "1,234.5", 1234.5],
        ["number", 7, 7],
        ["boolean", " Yes ", true],
        ["boolean", false, false],
        ["json", "{\"a\": [1]}", { a: [1] }],
        ["text", "  as typed ", "  as typed "]
      ] as const
      for (const [kind, message, value] of cases) {
        const { hooks, recording } = recordingHooks({ payload: answers(received(message)) })
        const done = yield* runWorkflow(asking(kind), {}, hooks)
        expect(done.vars).toEqual({ qty: value })
        expect(recording.emitted[0]).toEqual({ nodeId: "qty", format: "text", text: "How many?" })
        expect(recording.waits[0]!.request).toMatchObject({
          wait: { kind: "input", nodeId: "qty", prompt: "How many?", expect: kind },
          timeoutSeconds: 60
        })
      }
    }))

  it.effect("asks again after an answer that does not read, under new keys", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks({ payload: answers(received("lots"), received("12")) })
      const done = yield* runWorkflow(asking("number"), {}, hooks)
      expect(done.vars).toEqual({ qty: 12 })
      expect(recording.keys).toEqual(["start#1", "qty#1", "qty#1:resume", "qty#1:ask2", "qty#1:ask2:resume", "out#1"])
      expect(recording.traceKeys).toEqual(recording.keys)
      expect(recording.emitted.filter((output) => output.nodeId === "qty")).toHaveLength(2)
      expect(recording.traces.filter((trace) => trace.nodeId === "qty").map((trace) => [trace.status, trace.error]))
        .toEqual([["waiting", undefined], ["failed", "expected a number"], ["waiting", undefined], [
          "succeeded",
          undefined
        ]])
    }))

  it.effect("fails with invalid-input once it has asked MAX_INPUT_ASKS times", () =>
    Effect.gen(function*() {
      const { hooks, recording } = recordingHooks({ payload: () => Effect.succeed(received("nope")) })
      const error = yield* runWorkflow(asking("boolean"), {}, hooks).pipe(Effect.flip)
      expect(error).toMatchObject({ code: "invalid-input", nodeId: "qty" })
      expect(recording.waits).toHaveLength(MAX_INPUT_ASKS)
    }))
})
