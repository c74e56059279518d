/**
 * The interpreter plugged into @effect/workflow as a chain run will plug it:
 * each execution an `Activity` named by its key, each wait a
 * `DurableDeferred` named by its key, each duration a `DurableClock`. The
 * in-memory engine replays the workflow body from the start after every
 * suspension; completed activities answer from its store.
 */
import { describe, expect, it } from "@effect/vitest"
import { Activity, DurableClock, DurableDeferred, Workflow, WorkflowEngine } from "@effect/workflow"
import { Duration, Effect, Exit, Layer, Schema, TestClock } from "effect"
import { JsonValue } from "../../../../../src/domain/Json.js"
import { NodeResult } from "../../../../../src/domain/workflows/engine/NodeResult.js"
import { runWorkflow, WorkflowCompleted } from "../../../../../src/domain/workflows/engine/RunWorkflow.js"
import { WaitResult, type WorkflowHooks } from "../../../../../src/domain/workflows/engine/WorkflowHooks.js"
import { WorkflowRunFailed } from "../../../../../src/domain/workflows/engine/WorkflowRunFailed.js"
import type { NodeTrace } from "../../../../../src/domain/workflows/NodeTrace.js"
import { chain, edge, graph, node, trigger } from "./WorkflowFixtures.js"

const refund = graph([
  trigger([{ name: "order", type: "string" }]),
  node("lookup", "http", {
    toolId: "00000000-0000-4000-8000-000000000001",
    inputMapping: { order: "input.order" },
    outputVariable: "found"
  }),
  node("approve", "wait", { for: "approval", prompt: "Refund {{ vars.found.total }}?", outputVariable: "decision" }),
  node("cool", "wait", { for: "duration", seconds: 120 }),
  node("done", "output", { format: "json", expression: "{ 'order': input.order, 'refunded': vars.found.total }" })
], [...chain("start", "lookup", "approve"), edge("approve", "cool", "approved"), edge("cool", "done")])

const GraphRun = Workflow.make({
  name: "GraphRun",
  payload: { id: Schema.String, input: JsonValue },
  success: WorkflowCompleted,
  error: WorkflowRunFailed,
  idempotencyKey: ({ id }) => id
})

const seen = { bodies: 0, lookups: 0, traces: [] as Array<NodeTrace> }

const durableHooks: WorkflowHooks<never, WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance> = {
  callouts: {
    http: (call) =>
      Effect.sync(() => {
        seen.lookups++
        return { order: call.arguments.order!, total: 40 }
      }),
    llm: () => Effect.dieMessage("no llm here"),
    agent: () => Effect.dieMessage("no agent here")
  },
  execute: (key, _node, execution) =>
    Activity.make({ name: key, success: NodeResult, error: WorkflowRunFailed, execute: execution }),
  awaitPayload: (key) => DurableDeferred.await(DurableDeferred.make(key, { success: WaitResult })),
  sleep: (key, seconds) => DurableClock.sleep({ name: key, duration: Duration.seconds(seconds) }),
  emit: () => Effect.void,
  trace: (trace) => Effect.sync(() => void seen.traces.push(trace))
}

const GraphRunLive = GraphRun.toLayer(({ input }) =>
  Effect.suspend(() => {
    seen.bodies++
    return runWorkflow(refund, input, durableHooks)
  })
)

// A wait inside a parallel branch suspends the run from the branch's own fiber.
const fanned = graph([
  trigger(),
  node("fan", "parallel"),
  node("sign", "wait", { for: "approval", outputVariable: "signed" }),
  node("lookup", "http", { toolId: "00000000-0000-4000-8000-000000000001", outputVariable: "found" }),
  node("meet", "join"),
  node("done", "output", { format: "json", expression: "vars" })
], [
  edge("start", "fan"),
  edge("fan", "sign"),
  edge("fan", "lookup"),
  edge("sign", "meet", "approved"),
  edge("lookup", "meet"),
  edge("meet", "done")
])

const FannedRun = Workflow.make({
  name: "FannedRun",
  payload: { id: Schema.String },
  success: WorkflowCompleted,
  error: WorkflowRunFailed,
  idempotencyKey: ({ id }) => id
})

const FannedRunLive = FannedRun.toLayer(() => runWorkflow(fanned, {}, durableHooks))

/** Polls the run until `done` holds, letting its fibers (and JSONata's promises) run in between. */
const pollUntil = (
  executionId: string,
  done: (result: Workflow.Result<unknown, unknown>) => boolean,
  workflow: typeof GraphRun | typeof FannedRun = GraphRun
) =>
  Effect.gen(function*() {
    for (let round = 0; round < 200; round++) {
      const result = yield* workflow.poll(executionId)
      if (result !== undefined && done(result)) return result
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    }
    return yield* Effect.dieMessage("the run did not get there")
  })

describe("on @effect/workflow", () => {
  it.effect("executions are activities, waits durable deferreds, durations durable clocks", () =>
    Effect.gen(function*() {
      const executionId = yield* GraphRun.execute({ id: "run-1", input: { order: "A-1" } }, { discard: true })

      // Paused at the approval: the lookup ran once.
      yield* pollUntil(executionId, (result) => result._tag === "Suspended")
      expect(seen.lookups).toBe(1)
      expect(seen.traces.map((trace) => `${trace.nodeId}:${trace.status}`)).toEqual([
        "start:succeeded",
        "lookup:succeeded",
        "approve:waiting"
      ])

      // /resume: the deferred named by the wait's key receives the decision.
      const approval = DurableDeferred.make("approve#1", { success: WaitResult })
      const token = DurableDeferred.tokenFromExecutionId(approval, { workflow: GraphRun, executionId })
      yield* DurableDeferred.succeed(approval, { token, value: { _tag: "Received", payload: { approved: true } } })

      // Paused again on the durable clock of the two-minute wait, then done once it has passed.
      yield* pollUntil(executionId, (result) => result._tag === "Suspended")
      yield* TestClock.adjust("2 minutes")
      const result = yield* pollUntil(executionId, (result) => result._tag === "Complete")

      expect(result).toEqual(
        new Workflow.Complete({
          exit: Exit.succeed({
            outputs: [{ nodeId: "done", format: "json", value: { order: "A-1", refunded: 40 } }],
            vars: { found: { order: "A-1", total: 40 }, decision: { approved: true } },
            nodes: expect.any(Object)
          })
        })
      )
      // The body ran three times (start, after the approval, after the clock);
      // every node execution ran once.
      expect(seen.bodies).toBe(3)
      expect(seen.lookups).toBe(1)
      expect(seen.traces.map((trace) => `${trace.nodeId}:${trace.status}`)).toEqual([
        "start:succeeded",
        "lookup:succeeded",
        "approve:waiting",
        "approve:succeeded",
        "cool:succeeded",
        "done:succeeded"
      ])
    }).pipe(Effect.provide(GraphRunLive.pipe(Layer.provideMerge(WorkflowEngine.layerMemory)))))

  it.effect("a wait in a parallel branch suspends the run; the other branch's call runs once", () =>
    Effect.gen(function*() {
      seen.lookups = 0
      const executionId = yield* FannedRun.execute({ id: "run-2" }, { discard: true })
      yield* pollUntil(executionId, (result) => result._tag === "Suspended", FannedRun)
      expect(seen.lookups).toBe(1)

      const approval = DurableDeferred.make("fan#1>fan-next-sign/sign#1", { success: WaitResult })
      const token = DurableDeferred.tokenFromExecutionId(approval, { workflow: FannedRun, executionId })
      yield* DurableDeferred.succeed(approval, { token, value: { _tag: "Received", payload: { approved: true } } })
      const result = yield* pollUntil(executionId, (result) => result._tag === "Complete", FannedRun)

      expect(result).toMatchObject({
        exit: { _tag: "Success", value: { vars: { signed: { approved: true }, found: expect.any(Object) } } }
      })
      expect(seen.lookups).toBe(1)
    }).pipe(Effect.provide(FannedRunLive.pipe(Layer.provideMerge(WorkflowEngine.layerMemory)))))
})
