/**
 * The behaviour of the `WorkflowSimSession` entity. On activation it takes
 * ownership of its session (the next owner epoch, as `RuntimeSession`); then
 *
 * - `Open` runs the session's snapshot from its trigger with its input, until
 *   the first `input` or `wait` node or the end, and commits that as turn 0
 *   (a repeat answers the stored turn 0);
 * - `Turn` answers from storage when its idempotency key was used already
 *   (the stored result for the same body, `IdempotencyKeyReused` for
 *   another); refuses a session that has ended (`WorkflowSimSessionEnded`) and
 *   a message of the wrong kind for the wait the session stands at (a `text`
 *   where a payload is expected or the reverse, an approval that is no
 *   `ApprovalDecision`: `ValidationFailed`, nothing changed); otherwise hands
 *   the message to that wait and runs on to the next wait or the end. A turn
 *   that finds the opening not yet run (its message still to come, or lost
 *   with the node that stored the session) runs it first.
 *
 * A run always starts again from the trigger: the journal answers every node
 * execution and every wait it already holds (by the interpreter's execution
 * key), so nothing that ran in an earlier turn runs again, emits again or is
 * traced again; only the new executions do, and they are the turn's outputs
 * and trace. Duration waits pass at once, and wait time-outs are not
 * simulated (a wait waits for the next turn however long it takes).
 *
 * A turn is computed in memory and committed in one fenced statement (the
 * session's position, the turn's result, the new journal entries): a turn cut
 * short by a crash commits nothing and runs again when its message is
 * redelivered, its calls out with the same idempotency keys. A write that
 * finds another owner kills the turn as a defect (the entity restarts and
 * claims the session again). A defect of the run itself (not the database's)
 * ends the session `failed` (`internal`) rather than being retried for ever.
 */
import { Entity } from "@effect/cluster"
import { SqlError } from "@effect/sql"
import { Cause, Data, Effect, Either, Exit, Option, Schema } from "effect"
import { storable } from "../domain/aiAgents/StorableJson.js"
import { ValidationFailed } from "../domain/HttpErrors.js"
import { IdempotencyKeyReused } from "../domain/Idempotency.js"
import type { JsonObject, JsonValue } from "../domain/Json.js"
import type { NodeResult } from "../domain/workflows/engine/NodeResult.js"
import { runWorkflow } from "../domain/workflows/engine/RunWorkflow.js"
import type { WaitResult, WorkflowHooks } from "../domain/workflows/engine/WorkflowHooks.js"
import { WorkflowSimSessionId } from "../domain/workflows/Ids.js"
import type { NodeTrace, RunFailure } from "../domain/workflows/NodeTrace.js"
import type { PendingWait } from "../domain/workflows/PendingWait.js"
import { ApprovalDecision } from "../domain/workflows/WaitData.js"
import { WorkflowSimSessionEnded, WorkflowSimSessionNotFound } from "../domain/workflows/WorkflowSimSession.js"
import type { WorkflowSimStatus } from "../domain/workflows/WorkflowSimSession.js"
import {
  type WorkflowOutput,
  type WorkflowSimTurnRequest,
  WorkflowSimTurnResult
} from "../domain/workflows/WorkflowSimTurn.js"
import {
  type JournalEntry,
  type SessionState,
  WorkflowSimSessionRepo
} from "../persistence/workflows/WorkflowSimSessionRepo.js"
import { WorkflowCallouts } from "../services/workflows/WorkflowCallouts.js"
import { MAX_SIM_TURNS, WorkflowSimSession } from "./WorkflowSimSession.js"

/** Another activation owns the session now; this one must stop writing. */
class FencedOut extends Data.TaggedError("FencedOut")<{ readonly sessionId: string; readonly epoch: number }> {
  override get message() {
    return `Simulator session ${this.sessionId} has a newer owner than epoch ${this.epoch}; taking it over again`
  }
}

/** The run reached a wait this turn has no payload for: the turn ends there. */
class AwaitingTurn extends Data.TaggedError("AwaitingTurn")<{ readonly wait: PendingWait }> {}

/** A defect that is the infrastructure's (the database, another owner): retried, never blamed on the run. */
const notTheRunsFault = (defect: unknown) => defect instanceof FencedOut || defect instanceof SqlError.SqlError

const encodeResult = Schema.encode(WorkflowSimTurnResult)
const decodeResult = Schema.decodeUnknown(WorkflowSimTurnResult)

/** The result with every string made storable (NUL and lone surrogates become U+FFFD), dates kept. */
const storableResult = (result: WorkflowSimTurnResult) =>
  Effect.orDie(Effect.flatMap(encodeResult(result), (encoded) => decodeResult(storable(encoded))))

/** What a wait takes from a turn: a `text` for an input node reading text, a number or yes/no; else a `payload`. */
const expectsText = (wait: PendingWait) => wait.kind === "input" && wait.expect !== "json"

/** The payload the turn's message hands to the wait the session stands at, or why it cannot. */
const acceptable = (
  wait: PendingWait,
  message: WorkflowSimTurnRequest
): Effect.Effect<WaitResult, ValidationFailed> => {
  const where = `node ${wait.nodeId}`
  if ("text" in message) {
    return expectsText(wait)
      ? Effect.succeed({ _tag: "Received", payload: message.text })
      : Effect.fail(
        new ValidationFailed({
          message: `The session waits for a JSON payload (${wait.kind} at ${where}): send { "payload": ... }`,
          fields: ["text"]
        })
      )
  }
  if (expectsText(wait)) {
    return Effect.fail(
      new ValidationFailed({
        message: `The session waits for a message (input at ${where}): send { "text": "..." }`,
        fields: ["payload"]
      })
    )
  }
  if (wait.kind !== "approval") return Effect.succeed({ _tag: "Received", payload: message.payload })
  return Either.match(Schema.decodeUnknownEither(ApprovalDecision)(message.payload), {
    onLeft: () =>
      Effect.fail(
        new ValidationFailed({
          message: `The approval at ${where} takes { "approved": true|false, "comment"?: string }`,
          fields: ["payload"]
        })
      ),
    onRight: () => Effect.succeed({ _tag: "Received", payload: message.payload } as const)
  })
}

/** Where a turn left the session. */
interface Outcome {
  readonly result: WorkflowSimTurnResult
  readonly entries: ReadonlyArray<JournalEntry>
}

export const WorkflowSimSessionLive = WorkflowSimSession.toLayer(
  Effect.gen(function*() {
    const repo = yield* WorkflowSimSessionRepo
    const callouts = yield* WorkflowCallouts
    const address = yield* Entity.CurrentAddress
    const runner = yield* Entity.CurrentRunnerAddress
    const runnerName = `${runner.host}:${runner.port}`
    const sessionId = WorkflowSimSessionId.make(address.entityId)

    const epoch = Option.getOrNull(yield* repo.claim(sessionId, runnerName))
    if (epoch !== null) {
      yield* Effect.logDebug("Workflow simulator session activated").pipe(
        Effect.annotateLogs({ sessionId, epoch, runner: runnerName })
      )
    }

    const notFound = () =>
      new WorkflowSimSessionNotFound({ sessionId, message: `No simulator session ${sessionId} in this workspace` })

    /** The session as the message finds it (and the turn stored under its key), if the caller's workspace owns it. */
    const load = (workspaceId: string, idempotencyKey: string | null) =>
      Effect.gen(function*() {
        if (epoch === null) return yield* notFound()
        const current = yield* repo.current(sessionId, idempotencyKey)
        if (Option.isNone(current)) return yield* notFound()
        const { prior, state } = current.value
        if (state.ownerEpoch !== epoch) return yield* Effect.die(new FencedOut({ sessionId, epoch }))
        if (state.workspaceId !== workspaceId) return yield* notFound()
        return { state, prior }
      })

    /**
     * Runs the session's snapshot from its trigger with its journal, `message`
     * going to the first wait the journal has no payload for; the run stops
     * at the next wait without one, or at its end.
     */
    const advance = (state: SessionState, turn: number, message: WaitResult | undefined, traceId: string) =>
      Effect.gen(function*() {
        const results = new Map<string, NodeResult>()
        const payloads = new Map<string, JsonValue>()
        for (const entry of yield* repo.journal(sessionId)) {
          if (entry.kind === "result") results.set(entry.key, entry.value)
          else payloads.set(entry.key, entry.value)
        }
        const entries: Array<JournalEntry> = []
        const outputs: Array<WorkflowOutput> = []
        const trace: Array<NodeTrace> = []
        // The variables as the executions wrote them, in order: what a run stopped at a wait has written.
        let variables: JsonObject = {}
        let unread = message
        const hooks: WorkflowHooks<AwaitingTurn> = {
          callouts: callouts.forRun({
            workspaceId: state.workspaceId,
            usedBy: { kind: "workflow", id: state.workflowId },
            actor: state.startedBy,
            idempotencyPrefix: `sim/${sessionId}`
          }),
          execute: (key, _node, execution) =>
            Effect.suspend(() => {
              const known = results.get(key)
              const result = known !== undefined ? Effect.succeed(known) : Effect.map(execution, (ran) => {
                const kept = storable(ran)
                results.set(key, kept)
                entries.push({ kind: "result", key, value: kept })
                return kept
              })
              return Effect.tap(result, (done) => {
                if (done.writes !== undefined) variables = { ...variables, ...done.writes }
              })
            }),
          awaitPayload: (key, request) =>
            Effect.suspend(() => {
              const known = payloads.get(key)
              if (known !== undefined) return Effect.succeed<WaitResult>({ _tag: "Received", payload: known })
              if (unread === undefined || unread._tag !== "Received") {
                return Effect.fail(new AwaitingTurn({ wait: request.wait }))
              }
              const payload = storable(unread.payload)
              unread = undefined
              payloads.set(key, payload)
              entries.push({ kind: "payload", key, value: payload })
              return Effect.succeed<WaitResult>({ _tag: "Received", payload })
            }),
          // Durations pass at once in the simulator.
          sleep: () => Effect.void,
          emit: (output) => Effect.sync(() => void outputs.push(output)),
          trace: (traced) => Effect.sync(() => void trace.push(traced))
        }

        const exit = yield* Effect.exit(runWorkflow(state.graph, state.input, hooks))
        let status: WorkflowSimStatus
        let waitingFor: PendingWait | null = null
        let error: RunFailure | null = null
        if (Exit.isSuccess(exit)) {
          status = "completed"
          variables = exit.value.vars
        } else {
          const failure = Cause.failureOption(exit.cause)
          if (Option.isSome(failure)) {
            if (failure.value._tag === "AwaitingTurn") {
              status = "waiting-input"
              waitingFor = failure.value.wait
            } else {
              status = "failed"
              error = failure.value.failure
            }
          } else if (Cause.isInterruptedOnly(exit.cause) || [...Cause.defects(exit.cause)].some(notTheRunsFault)) {
            return yield* Effect.failCause(exit.cause as Cause.Cause<never>)
          } else {
            yield* Effect.logError("A simulator turn died; the session ends failed", exit.cause).pipe(
              Effect.annotateLogs({ sessionId, turn })
            )
            status = "failed"
            error = { code: "internal", message: "The run met an internal fault; the session cannot go on" }
          }
        }
        if (status === "waiting-input" && turn >= MAX_SIM_TURNS) {
          status = "failed"
          waitingFor = null
          error = { code: "max-iterations", message: `the session reached its limit of ${MAX_SIM_TURNS} turns` }
        }
        const result = yield* storableResult({
          sessionId,
          turn,
          status,
          outputs,
          trace,
          waitingFor,
          variables,
          error,
          traceId
        })
        return { result, entries } satisfies Outcome
      })

    const ended = (status: WorkflowSimStatus) =>
      new WorkflowSimSessionEnded({
        sessionId,
        status,
        message: `The session has ${status} and takes no more turns; start a new one`
      })

    /** Commits the turn, fenced: another owner by now kills it as a defect (the entity restarts and reruns it). */
    const commit = (
      outcome: Outcome,
      turn: { readonly idempotencyKey: string; readonly bodyHash: string; readonly request: JsonValue } | null
    ) =>
      Effect.flatMap(
        repo.commit({
          sessionId,
          epoch: epoch!,
          turn: outcome.result.turn,
          status: outcome.result.status,
          waitingFor: outcome.result.waitingFor,
          variables: outcome.result.variables,
          error: outcome.result.error,
          idempotencyKey: turn?.idempotencyKey ?? null,
          bodyHash: turn?.bodyHash ?? null,
          request: turn?.request ?? null,
          result: outcome.result,
          traceId: outcome.result.traceId,
          entries: outcome.entries
        }),
        (committed) =>
          committed ? Effect.succeed(outcome.result) : Effect.die(new FencedOut({ sessionId, epoch: epoch! }))
      )

    return WorkflowSimSession.of({
      Open: Effect.fnUntraced(function*({ payload }) {
        const { state } = yield* load(payload.workspaceId, null)
        if (state.status !== "running") {
          const opening = yield* repo.turnResult(sessionId, 0)
          if (Option.isSome(opening)) return opening.value
          return yield* Effect.dieMessage(`Simulator session ${sessionId} has moved on without an opening`)
        }
        return yield* commit(yield* advance(state, 0, undefined, payload.traceId), null)
      }),
      Turn: Effect.fnUntraced(function*({ payload }) {
        const loaded = yield* load(payload.workspaceId, payload.idempotencyKey)
        const prior = loaded.prior
        let state = loaded.state
        if (Option.isSome(prior)) {
          if (prior.value.bodyHash !== payload.bodyHash) {
            return yield* new IdempotencyKeyReused({
              idempotencyKey: payload.idempotencyKey,
              message: "This Idempotency-Key was already used in this session with a different body"
            })
          }
          return prior.value.result
        }
        if (state.status === "completed" || state.status === "failed") return yield* ended(state.status)
        if (state.status === "running") {
          // The opening has not run yet (its message is still to come, or was lost with its node): it runs first.
          yield* commit(yield* advance(state, 0, undefined, payload.traceId), null)
          state = (yield* load(payload.workspaceId, null)).state
          if (state.status !== "waiting-input") return yield* ended(state.status)
        }
        if (state.waitingFor === null) {
          return yield* Effect.dieMessage(`Simulator session ${sessionId} waits for nothing`)
        }
        const received = yield* acceptable(state.waitingFor, payload.message)
        const outcome = yield* advance(state, state.turnCount + 1, received, payload.traceId)
        return yield* commit(outcome, {
          idempotencyKey: payload.idempotencyKey,
          bodyHash: payload.bodyHash,
          request: payload.message as JsonValue
        })
      })
    })
  })
)
