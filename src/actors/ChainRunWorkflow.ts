/**
 * The protocol of a chain run: a durable workflow on the cluster's workflow
 * engine (`ClusterWorkflowEngine`), one execution per run and generation.
 * Each node execution of each step is an activity, so a node's death
 * resumes the run on another node at the execution that was under way, and
 * executions already completed return their stored results instead of running
 * again. A wait blocks on a durable deferred named by its execution key,
 * which `/resume` completes. A failed run taken up again is the next
 * generation: a new execution that reuses the steps that succeeded (from the
 * step log) and runs the failed step afresh (`ChainRunWorkflowLive`).
 */
import { DurableDeferred, Workflow } from "@effect/workflow"
import { Effect, Schema } from "effect"
import { WaitResult } from "../domain/workflows/engine/WorkflowHooks.js"
import { ChainRunId } from "../domain/workflows/Ids.js"

/** What starts an execution: the run, and which of its generations. */
export const ChainRunPayload = {
  runId: ChainRunId,
  generation: Schema.Number.pipe(Schema.int(), Schema.positive())
}

export const ChainRunWorkflow = Workflow.make({
  name: "ChainRun",
  payload: ChainRunPayload,
  idempotencyKey: ({ generation, runId }) => `${runId}/${generation}`
})

/** The deferred a wait of a run blocks on, by its execution key within the run. */
export const waitDeferred = (key: string) => DurableDeferred.make(`wait/${key}`, { success: WaitResult })

/** The execution id of a run's generation (the engine's entity id). */
export const executionIdOf = (runId: ChainRunId, generation: number) =>
  ChainRunWorkflow.executionId({ runId, generation })

/** Completes a paused run's wait with its result: the execution that waits on it goes on. */
export const completeWait = (runId: ChainRunId, generation: number, key: string, result: WaitResult) =>
  Effect.flatMap(executionIdOf(runId, generation), (executionId) => {
    const deferred = waitDeferred(key)
    return DurableDeferred.succeed(deferred, {
      token: DurableDeferred.tokenFromExecutionId(deferred, { workflow: ChainRunWorkflow, executionId }),
      value: result
    })
  })
