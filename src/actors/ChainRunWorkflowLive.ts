/**
 * How a chain run executes (see `ChainRunWorkflow`). Every decision that
 * reads anything but the results of earlier activities (the run's plan, a
 * step's condition and input, the version a step resolves to, where the run
 * goes next) is itself an activity, so a replay after a crash takes the path
 * the first execution took. Each node execution is an activity named by the
 * step, the attempt and the interpreter's execution key; its trace goes to the
 * step log inside the activity, once per key. A wait pauses the run (status
 * `paused`, what it waits for) and blocks on its durable deferred; a wait with
 * a time-out races the deferred against the durable clock. A step that fails
 * is tried again after a back-off (1, 2, 4... seconds, at most 60) up to its
 * `maxAttempts`, then fails the run or, with `onError: continue`, hands on
 * `null`. A cancelled run stops before its next node execution.
 */
import { SqlClient } from "@effect/sql"
import { Activity, DurableClock, DurableDeferred } from "@effect/workflow"
import type { WorkflowEngine, WorkflowInstance } from "@effect/workflow/WorkflowEngine"
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { WorkspaceId } from "../domain/identity/Ids.js"
import { JsonValue } from "../domain/Json.js"
import { type ChainDocument, nextStep, planStep, workflowOutput } from "../domain/workflows/ChainPlan.js"
import { ChainStep } from "../domain/workflows/ChainStep.js"
import { NodeResult } from "../domain/workflows/engine/NodeResult.js"
import { runWorkflow } from "../domain/workflows/engine/RunWorkflow.js"
import { type WaitResult, WaitResult as WaitResultSchema } from "../domain/workflows/engine/WorkflowHooks.js"
import { WorkflowRunFailed } from "../domain/workflows/engine/WorkflowRunFailed.js"
import { ChainId } from "../domain/workflows/Ids.js"
import { NodeTrace, RunFailure } from "../domain/workflows/NodeTrace.js"
import { PendingWait } from "../domain/workflows/PendingWait.js"
import { WorkflowGraph } from "../domain/workflows/WorkflowGraph.js"
import { transaction } from "../persistence/Transaction.js"
import { ChainRunRepo } from "../persistence/workflows/ChainRunRepo.js"
import { ChainEvents } from "../services/workflows/ChainEvents.js"
import { WorkflowCallouts } from "../services/workflows/WorkflowCallouts.js"
import { ChainRunWorkflow, waitDeferred } from "./ChainRunWorkflow.js"

/** The longest back-off between two attempts of a step. */
const MAX_BACKOFF_SECONDS = 60

/** The back-off before attempt `n + 1` of a step (n counted from 1 within this execution). */
export const backoffSeconds = (n: number): number => Math.min(MAX_BACKOFF_SECONDS, 2 ** (n - 1))

const Plan = Schema.Struct({
  workspaceId: WorkspaceId,
  chainId: ChainId,
  chainSlug: Schema.String,
  steps: Schema.Array(ChainStep),
  input: JsonValue,
  eventType: Schema.NullOr(Schema.String),
  generation: Schema.Number,
  history: Schema.Array(Schema.Struct({
    stepId: Schema.String,
    attempts: Schema.Number,
    succeeded: Schema.Boolean,
    output: JsonValue
  }))
})

const StepDecision = Schema.Union(
  Schema.TaggedStruct("Skip", {}),
  Schema.TaggedStruct("Run", { input: JsonValue })
)

const Resolved = Schema.Struct({ version: Schema.Number, graph: WorkflowGraph })

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

export const ChainRunWorkflowLive = ChainRunWorkflow.toLayer(
  Effect.fn("ChainRunWorkflow.run")(function*({ generation, runId }) {
    const runs = yield* ChainRunRepo
    const transactional = transaction(yield* SqlClient.SqlClient)
    const callouts = yield* WorkflowCallouts
    const events = yield* ChainEvents

    const act = <A, I, E = never, EI = never, R = never>(
      name: string,
      success: Schema.Schema<A, I>,
      execute: Effect.Effect<A, E, R>,
      error?: Schema.Schema<E, EI>
    ) =>
      Activity.make({
        name,
        success,
        error: (error ?? Schema.Never) as unknown as Schema.Schema<E, EI>,
        execute
      })

    const loaded = yield* act(
      "load",
      Schema.UndefinedOr(Plan),
      Effect.gen(function*() {
        const plan = yield* runs.plan(runId)
        if (plan === undefined) return undefined
        const history = yield* runs.history(runId)
        return { ...plan, history }
      })
    )
    // Gone with its chain, or taken up by a later generation: nothing to do.
    if (loaded === undefined || loaded.generation !== generation) return
    const plan = loaded
    yield* act("start", Schema.Void, Effect.flatMap(now, (at) => runs.markRunning(runId, generation, at)))

    const finish = (status: "succeeded" | "failed", output: JsonValue, error: RunFailure | null) =>
      act(
        `finish`,
        Schema.Void,
        Effect.gen(function*() {
          const ended = yield* runs.finish(runId, generation, status, output, error, yield* now)
          // Repeated after a crash, this finds the run ended by its first execution, whose event may never have
          // gone out: it is sent again (same webhook-id). A run ended otherwise (cancelled) sends nothing here.
          const run = ended ? undefined : Option.getOrUndefined(yield* runs.find(plan.workspaceId, plan.chainId, runId))
          if (!ended && run?.status !== status) return
          yield* events.send({
            type: status === "succeeded" ? "chain.run.succeeded" : "chain.run.failed",
            chainId: plan.chainId,
            runId,
            generation,
            data: status === "succeeded" ? { status, output } : { status, error: error as unknown as JsonValue }
          })
        })
      )

    const history = new Map(plan.history.map((entry) => [entry.stepId, entry]))
    const outputs: Record<string, JsonValue> = {}
    const document = (previous: JsonValue): ChainDocument => ({
      input: plan.input,
      event: plan.eventType === null ? null : plan.input,
      steps: { ...outputs },
      previous
    })

    /** One attempt of a step: its workflow's version resolved, run through the interpreter, its end logged. */
    const attemptStep = (step: ChainStep, attempt: number, input: JsonValue) =>
      Effect.gen(function*() {
        const prefix = `${step.id}/${attempt}`
        const resolved = yield* act(
          `resolve/${prefix}`,
          Schema.UndefinedOr(Resolved),
          runs.resolveVersion(plan.workspaceId, step.workflowId, step.version).pipe(
            Effect.flatMap((row) =>
              row === undefined
                ? Effect.succeed(undefined)
                : Schema.decodeUnknown(Resolved)(row).pipe(Effect.orDie)
            )
          )
        )
        yield* act(
          `begin/${prefix}`,
          Schema.Void,
          Effect.flatMap(now, (at) =>
            runs.beginStep({
              runId,
              stepId: step.id,
              attempt,
              generation,
              workflowId: step.workflowId,
              workflowVersion: resolved?.version ?? null,
              input
            }, at))
        )
        if (resolved === undefined) {
          return yield* new WorkflowRunFailed({
            code: "not-runnable",
            message: step.version === undefined
              ? `workflow ${step.workflowId} has no live version`
              : `version ${step.version} of workflow ${step.workflowId} is not a published version`
          })
        }
        const bound = callouts.forRun({
          workspaceId: plan.workspaceId,
          usedBy: { kind: "chain", id: plan.chainSlug },
          actor: { kind: "system" },
          idempotencyPrefix: `${runId}/${prefix}`
        })
        const encodeTrace = Schema.encode(NodeTrace)
        const completed = yield* runWorkflow<never, WorkflowEngine | WorkflowInstance>(resolved.graph, input, {
          callouts: bound,
          execute: (key, _node, execution) =>
            act(
              `node/${prefix}/${key}`,
              NodeResult,
              Effect.flatMap(runs.stopped(runId), (stopped) =>
                stopped
                  ? Effect.fail(new WorkflowRunFailed({ code: "cancelled", message: "the run was cancelled" }))
                  : execution),
              WorkflowRunFailed
            ),
          awaitPayload: (key, request) =>
            Effect.gen(function*() {
              const waitKey = `${prefix}/${key}`
              yield* act(
                `pause/${waitKey}`,
                Schema.Void,
                Effect.gen(function*() {
                  const at = yield* now
                  // The run and its step change together: a reader never sees one paused, the other not.
                  yield* transactional(Effect.zipRight(
                    runs.pause(runId, generation, { ...request.wait, stepId: step.id }, {
                      nodeId: request.node.id,
                      stepId: step.id,
                      key: waitKey
                    }, at),
                    runs.markStep(runId, step.id, attempt, "paused", null, null, at)
                  ))
                  yield* events.send({
                    type: "chain.run.paused",
                    chainId: plan.chainId,
                    runId,
                    generation,
                    discriminator: waitKey.replace(/[^A-Za-z0-9]+/g, "-"),
                    data: { status: "paused", waitingFor: [yield* encodeWait({ ...request.wait, stepId: step.id })] }
                  })
                })
              )
              const result: WaitResult = request.timeoutSeconds === undefined
                ? yield* DurableDeferred.await(waitDeferred(waitKey))
                : yield* timedWait(waitKey, request.timeoutSeconds)
              yield* act(
                `unpause/${waitKey}`,
                Schema.Void,
                Effect.gen(function*() {
                  const at = yield* now
                  yield* transactional(Effect.zipRight(
                    runs.markRunning(runId, generation, at),
                    runs.markStep(runId, step.id, attempt, "running", null, null, at)
                  ))
                })
              )
              return result
            }),
          sleep: (key, seconds) =>
            DurableClock.sleep({ name: `sleep/${prefix}/${key}`, duration: Duration.seconds(seconds) }),
          emit: () => Effect.void,
          trace: (trace, key) =>
            Effect.gen(function*() {
              const encoded = yield* Effect.orDie(encodeTrace(trace))
              yield* runs.appendTrace(runId, step.id, attempt, key, encoded)
            })
        })
        const output = workflowOutput(completed)
        yield* act(
          `end/${prefix}`,
          Schema.Void,
          Effect.flatMap(now, (at) => runs.markStep(runId, step.id, attempt, "succeeded", output, null, at))
        )
        return output
      }).pipe(
        Effect.tapError((failure) =>
          failure instanceof WorkflowRunFailed
            ? act(
              `fail/${step.id}/${attempt}`,
              Schema.Void,
              Effect.flatMap(now, (at) =>
                runs.markStep(runId, step.id, attempt, failure.code === "cancelled" ? "cancelled" : "failed", null, {
                  ...failure.failure,
                  stepId: step.id
                }, at))
            )
            : Effect.void
        )
      )

    let previous: JsonValue = plan.input
    let index: number | undefined = plan.steps.length > 0 ? 0 : undefined
    while (index !== undefined) {
      const step = plan.steps[index]!
      const earlier = history.get(step.id)
      if (earlier?.succeeded === true) {
        // Succeeded in an earlier generation: its output stands, it does not run again.
        outputs[step.id] = earlier.output
        previous = earlier.output
      } else {
        const decision = yield* act(
          `plan/${step.id}`,
          StepDecision,
          Effect.flatMap(now, (at) => planStep(step, document(previous), at.getTime())),
          RunFailure
        ).pipe(Effect.either)
        if (decision._tag === "Left") return yield* finish("failed", null, decision.left)
        if (decision.right._tag === "Skip") {
          yield* act(
            `skip/${step.id}`,
            Schema.Void,
            Effect.gen(function*() {
              const at = yield* now
              const attempt = (earlier?.attempts ?? 0) + 1
              yield* runs.beginStep({
                runId,
                stepId: step.id,
                attempt,
                generation,
                workflowId: step.workflowId,
                workflowVersion: null,
                input: null
              }, at)
              yield* runs.markStep(runId, step.id, attempt, "skipped", null, null, at)
            })
          )
        } else {
          const first = (earlier?.attempts ?? 0) + 1
          let last: WorkflowRunFailed | undefined
          let done = false
          for (let attempt = first; attempt < first + step.maxAttempts && !done; attempt++) {
            const result = yield* Effect.either(attemptStep(step, attempt, decision.right.input))
            if (result._tag === "Right") {
              outputs[step.id] = result.right
              previous = result.right
              done = true
            } else {
              last = result.left
              if (last.code === "cancelled") return
              if (attempt + 1 < first + step.maxAttempts) {
                yield* DurableClock.sleep({
                  name: `backoff/${step.id}/${attempt}`,
                  duration: Duration.seconds(backoffSeconds(attempt - first + 1))
                })
              }
            }
          }
          if (!done) {
            if (step.onError === "continue") {
              outputs[step.id] = null
              previous = null
            } else {
              return yield* finish(
                "failed",
                null,
                {
                  code: "step-failed",
                  message: `step ${step.id} failed after ${step.maxAttempts} attempt(s): ${last?.message ?? "unknown"}`,
                  stepId: step.id,
                  ...(last?.nodeId === undefined ? {} : { nodeId: last.nodeId })
                }
              )
            }
          }
        }
      }
      const next = yield* act(
        `next/${step.id}`,
        Schema.UndefinedOr(Schema.Number),
        Effect.flatMap(now, (at) => nextStep(plan.steps, index!, document(previous), at.getTime())),
        RunFailure
      ).pipe(Effect.either)
      if (next._tag === "Left") return yield* finish("failed", null, next.left)
      index = next.right
    }
    yield* finish("succeeded", previous, null)
  })
)

const encodeWait = (wait: PendingWait) => Effect.orDie(Schema.encode(PendingWait)(wait)) as Effect.Effect<JsonValue>

/** A wait with a time-out: the first of its payload and the durable clock, the winner stored for replays. */
const timedWait = (
  waitKey: string,
  seconds: number
): Effect.Effect<WaitResult, never, WorkflowEngine | WorkflowInstance> =>
  DurableDeferred.raceAll({
    name: `timeout/${waitKey}`,
    success: WaitResultSchema,
    error: Schema.Never,
    effects: [
      DurableDeferred.await(waitDeferred(waitKey)),
      Effect.as(
        DurableClock.sleep({ name: `timeout/${waitKey}`, duration: Duration.seconds(seconds) }),
        { _tag: "TimedOut" } as const
      )
    ]
  } as never) as Effect.Effect<WaitResult, never, WorkflowEngine | WorkflowInstance>
