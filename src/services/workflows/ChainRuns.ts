/**
 * Chain runs: start (by `run`, the authenticated `ingress` or the signed
 * public ingress), list, read with the step log, resume, cancel. A start is
 * refused with every reason when a step cannot run (`ChainNotRunnable`); a
 * repeated start with the same `Idempotency-Key` and body, or the same
 * `webhook-id`, finds the first run instead of starting a second. The run
 * row is written first (queued), then the durable execution is started; a
 * node that dies in between leaves a queued run that the sweep (every
 * `SWEEP_SECONDS` on every node) starts again, which the engine's execution
 * id makes harmless when it had started after all. `/resume` on a paused run
 * completes its wait (only one resume wins: a second is a 409); on a failed
 * run it starts the next generation, which keeps the steps that succeeded
 * and runs the failed one afresh.
 */
import { SqlClient } from "@effect/sql"
import { WorkflowEngine } from "@effect/workflow/WorkflowEngine"
import { Clock, Duration, Effect, Option, Schedule, Schema } from "effect"
import * as Crypto from "node:crypto"
import { v7 as uuidv7 } from "uuid"
import { ChainRunWorkflow, completeWait, executionIdOf } from "../../actors/ChainRunWorkflow.js"
import { canonicalJson } from "../../domain/CanonicalJson.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import type { Actor } from "../../domain/identity/Actor.js"
import type { JsonValue } from "../../domain/Json.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Chain } from "../../domain/workflows/Chain.js"
import { IngressReplayed } from "../../domain/workflows/ChainIngress.js"
import { ChainNotRunnable } from "../../domain/workflows/ChainNotRunnable.js"
import {
  ChainRunFinished,
  type ChainRunListParams,
  ChainRunNotFound,
  ChainRunNotPaused,
  type ChainRunResume,
  type ChainRunTrigger
} from "../../domain/workflows/ChainRun.js"
import { runProblems } from "../../domain/workflows/ChainStepReferences.js"
import type { ChainRunId } from "../../domain/workflows/Ids.js"
import { ApprovalDecision } from "../../domain/workflows/WaitData.js"
import { snapshot, transaction } from "../../persistence/Transaction.js"
import { ChainRepo } from "../../persistence/workflows/ChainRepo.js"
import { ChainRunRepo } from "../../persistence/workflows/ChainRunRepo.js"
import { currentTraceId } from "../runtime/CurrentTrace.js"
import { ChainEvents } from "./ChainEvents.js"

/** How often each node looks for runs whose start was lost, and how old a queued run must be to count. */
export const SWEEP_SECONDS = 15

/** How a run is asked for: its trigger, who, its input and event, and what makes a repeat the same start. */
export interface RunStart {
  readonly trigger: ChainRunTrigger
  readonly startedBy: Actor | null
  readonly input: JsonValue
  readonly eventType: string | null
  readonly idempotencyKey: string | undefined
  readonly webhookId: string | undefined
}

const runNotFound = (runId: ChainRunId) => new ChainRunNotFound({ runId, message: `No run ${runId} of this chain` })

export class ChainRuns extends Effect.Service<ChainRuns>()("parley/services/workflows/ChainRuns", {
  scoped: Effect.gen(function*() {
    const runs = yield* ChainRunRepo
    const sql = yield* SqlClient.SqlClient
    const chains = yield* ChainRepo
    const events = yield* ChainEvents
    const engine = yield* WorkflowEngine
    const withEngine = Effect.provideService(WorkflowEngine, engine)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const launch = (runId: ChainRunId, generation: number) =>
      Effect.asVoid(ChainRunWorkflow.execute({ runId, generation }, { discard: true })).pipe(withEngine)

    /** Why the chain cannot run now, from one read of the workflows its steps name. */
    const problems = Effect.fn("ChainRuns.problems")(function*(chain: Chain) {
      const ids = [...new Set(chain.steps.map((step) => step.workflowId as string))]
      const found = yield* chains.stepWorkflows(chain.workspaceId, ids)
      return runProblems(chain.steps, new Map(found.map((workflow) => [workflow.id, workflow])))
    })

    const start = Effect.fn("ChainRuns.start")(function*(chain: Chain, request: RunStart) {
      const found = yield* problems(chain)
      if (found.length > 0) {
        return yield* new ChainNotRunnable({
          slug: chain.slug,
          problems: found,
          message: found.map((problem) => problem.message).join("; ")
        })
      }
      const id = uuidv7() as ChainRunId
      const bodyHash = Crypto.createHash("sha256")
        .update(canonicalJson({ input: request.input, eventType: request.eventType }))
        .digest("hex")
      const inserted = yield* runs.insert({
        id,
        workspaceId: chain.workspaceId,
        chainId: chain.id,
        chainSlug: chain.slug,
        chainRevision: chain.revision,
        steps: chain.steps,
        trigger: request.trigger,
        eventType: request.eventType,
        webhookId: request.webhookId ?? null,
        idempotencyKey: request.idempotencyKey ?? null,
        bodyHash,
        input: request.input,
        startedBy: request.startedBy,
        traceId: yield* currentTraceId,
        at: yield* now
      })
      if (inserted._tag === "Existing") {
        if (request.webhookId !== undefined && request.idempotencyKey === undefined) {
          return yield* new IngressReplayed({
            webhookId: request.webhookId,
            runId: inserted.runId,
            message: `webhook-id ${request.webhookId} was already delivered; it started run ${inserted.runId}`
          })
        }
        if (inserted.bodyHash !== bodyHash) {
          return yield* new IdempotencyKeyReused({
            idempotencyKey: request.idempotencyKey ?? "",
            message: "This Idempotency-Key started a run of this chain with another body"
          })
        }
        return yield* stored(chain, inserted.runId)
      }
      yield* launch(id, 1)
      return yield* stored(chain, id)
    })

    const find = Effect.fn("ChainRuns.get")(function*(chain: Chain, runId: ChainRunId) {
      return Option.getOrUndefined(yield* runs.find(chain.workspaceId, chain.id, runId)) ?? (yield* runNotFound(runId))
    })

    /** A run this service has just found or written: there (a chain deleted meanwhile takes its runs, a defect here). */
    const stored = (chain: Chain, runId: ChainRunId) =>
      find(chain, runId).pipe(Effect.catchTag("ChainRunNotFound", Effect.die))

    /** The run and its steps, of one moment. */
    const detail = Effect.fn("ChainRuns.detail")(function*(chain: Chain, runId: ChainRunId) {
      const run = yield* find(chain, runId)
      return { ...run, steps: yield* runs.steps(runId) }
    }, snapshot(sql))

    const list = Effect.fn("ChainRuns.list")(function*(chain: Chain, params: typeof ChainRunListParams.Type) {
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* runs.page(
        chain.id,
        { status: params.status, trigger: params.trigger },
        limit,
        offset
      )
      return { items, total, limit, offset }
    })

    /** The payload a wait accepts: an approval decision for an approval, any JSON for an event or an input. */
    const checkPayload = (kind: "input" | "approval" | "event", payload: JsonValue) =>
      kind !== "approval"
        ? Effect.void
        : Schema.decodeUnknown(ApprovalDecision)(payload).pipe(
          Effect.asVoid,
          Effect.mapError(() =>
            new ValidationFailed({
              message: "An approval is resumed with { \"approved\": true|false, \"comment\"?: string }",
              fields: ["payload"]
            })
          )
        )

    const resume = Effect.fn("ChainRuns.resume")(function*(
      chain: Chain,
      runId: ChainRunId,
      request: typeof ChainRunResume.Type,
      idempotencyKey: string | undefined
    ) {
      const run = yield* find(chain, runId)
      // The repeat of a resume that was accepted: the run as it is now, its wait completed again if the first
      // was cut off before it completed it (the engine keeps the first completion of a wait; nothing runs twice).
      if (idempotencyKey !== undefined && (yield* runs.resumeKey(runId)) === idempotencyKey) {
        yield* completeClaimed(yield* runs.claimedWaits({ runId }))
        return yield* find(chain, runId)
      }
      if (run.status === "failed") {
        const generation = yield* runs.claimFailed(runId, idempotencyKey, yield* now)
        if (generation !== undefined) {
          yield* launch(runId, generation)
          return yield* find(chain, runId)
        }
      }
      const notPaused = (status: typeof run.status) =>
        new ChainRunNotPaused({
          runId,
          status,
          message: `Run ${runId} is ${status}: only a paused run (or a failed one, from its failed step) can be resumed`
        })
      if (run.status !== "paused") return yield* notPaused(run.status)
      const wait = run.waitingFor.find((pending) => request.nodeId === undefined || pending.nodeId === request.nodeId)
      if (wait === undefined) {
        return yield* new ValidationFailed({
          message: `Run ${runId} is not waiting at node ${request.nodeId}`,
          fields: ["nodeId"]
        })
      }
      yield* checkPayload(wait.kind, request.payload)
      const claimed = yield* runs.claimWait(runId, request.nodeId, request.payload, idempotencyKey, yield* now)
      if (claimed === undefined) return yield* notPaused((yield* find(chain, runId)).status)
      yield* withEngine(
        completeWait(runId, claimed.generation, claimed.key, { _tag: "Received", payload: request.payload })
      )
      return yield* find(chain, runId)
    })

    const cancel = Effect.fn("ChainRuns.cancel")(function*(chain: Chain, runId: ChainRunId) {
      const run = yield* find(chain, runId)
      const at = yield* now
      // The run and its open steps end together: a reader never sees a cancelled run with running steps.
      const ended = yield* Effect.gen(function*() {
        const finished = yield* runs.finish(runId, undefined, "cancelled", null, {
          code: "cancelled",
          message: "cancelled through the API"
        }, at)
        if (finished) yield* runs.markOpenStepsCancelled(runId, at)
        return finished
      }).pipe(transaction(sql))
      if (!ended) {
        return yield* new ChainRunFinished({
          runId,
          status: run.status,
          message: `Run ${runId} has already ended (${(yield* find(chain, runId)).status})`
        })
      }
      yield* events.send({
        type: "chain.run.cancelled",
        chainId: chain.id,
        runId,
        generation: run.generation,
        data: { status: "cancelled" }
      })
      // A paused execution stops at once; a running one stops before its next node.
      yield* withEngine(ChainRunWorkflow.interrupt(yield* executionIdOf(runId, run.generation)))
      return yield* find(chain, runId)
    })

    /** Completes the waits of resumes that were claimed but may have been cut off before completing them. */
    const completeClaimed = (
      claimed: ReadonlyArray<{ runId: ChainRunId; generation: number; key: string; payload: JsonValue }>
    ) =>
      Effect.forEach(
        claimed,
        (wait) =>
          withEngine(completeWait(wait.runId, wait.generation, wait.key, { _tag: "Received", payload: wait.payload })),
        { discard: true }
      )

    /** Starts again the runs whose start was lost, and completes the resumes cut off, with the node that took them. */
    const sweep = Effect.gen(function*() {
      const at = yield* now
      const stale = yield* runs.stale(SWEEP_SECONDS, at)
      yield* Effect.forEach(stale, (run) => launch(run.id, run.generation), { discard: true })
      yield* completeClaimed(yield* runs.claimedWaits({ olderThanSeconds: SWEEP_SECONDS, at }))
    }).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("The chain-run sweep failed; it runs again", cause))
    )
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.seconds(SWEEP_SECONDS))))

    return { start, list, get: find, detail, resume, cancel } as const
  }),
  dependencies: [ChainRunRepo.Default, ChainRepo.Default]
}) {}
