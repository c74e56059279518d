/**
 * The behaviour of the `RuntimeSession` entity. On activation it takes
 * ownership of its session (the next owner epoch, recorded) and loads it;
 * each turn then
 *
 * 1. answers from storage when the turn's idempotency key was already used
 *    (the stored reply for the same body, `IdempotencyKeyReused` for another);
 * 2. runs the flow engine on the session's state;
 * 3. stores the reply and the new state in one statement that succeeds only
 *    while this activation's epoch still owns the session.
 *
 * A delivery that repeats (a retry, a redelivery after a crash, the same key
 * on two nodes) therefore advances the conversation once. If the fenced write
 * finds that another activation took over, the turn dies as a defect: the
 * entity restarts, takes ownership again and reruns it from step 1.
 */
import { Entity } from "@effect/cluster"
import { Data, Effect, Either, Option, Schema } from "effect"
import type { AssistantId } from "../domain/assistants/Assistant.js"
import { DeploymentId } from "../domain/assistants/Deployment.js"
import { IdempotencyKeyReused } from "../domain/Idempotency.js"
import type { WorkspaceId } from "../domain/identity/Ids.js"
import { advance } from "../domain/runtime/engine/FlowEngine.js"
import {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound,
  SessionState
} from "../domain/runtime/RuntimeSession.js"
import { SimulatedTurnReply, TurnInput } from "../domain/runtime/Turn.js"
import { turnFacts } from "../domain/runtime/TurnFacts.js"
import { endedByDraft } from "../domain/runtime/UnrunnableDraft.js"
import { RuntimeSessionRepo, type SessionRow } from "../persistence/runtime/RuntimeSessionRepo.js"
import { DeploymentPrograms } from "../services/runtime/DeploymentPrograms.js"
import { DraftPrograms } from "../services/runtime/DraftPrograms.js"
import { RuntimeSession } from "./RuntimeSession.js"

/** Another activation owns the session now; this one must stop writing. */
class FencedOut extends Data.TaggedError("FencedOut")<{ readonly sessionId: string; readonly epoch: number }> {
  override get message() {
    return `Session ${this.sessionId} has a newer owner than epoch ${this.epoch}; taking it over again`
  }
}

/** Where this activation has the session: its row as of the last turn it wrote. */
interface Owned {
  readonly sessionId: RuntimeSessionId
  readonly workspaceId: WorkspaceId
  readonly agentId: AssistantId
  readonly source: "draft" | "deployment"
  /** The deployment whose snapshot the session runs; `null` for a draft session. */
  readonly deploymentId: DeploymentId | null
  readonly locale: string
  readonly epoch: number
  readonly turn: number
  readonly revision: number
  readonly state: SessionState
}

const decodeState = Schema.decodeUnknown(SessionState)
const decodeReply = Schema.decodeUnknown(SimulatedTurnReply)
const encodeReply = Schema.encode(SimulatedTurnReply)
const encodeInput = Schema.encode(TurnInput)

const owned = (row: SessionRow) =>
  Effect.map(decodeState(row.state), (state): Owned => ({
    sessionId: row.id,
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    source: row.source,
    deploymentId: row.deploymentId === null ? null : DeploymentId.make(row.deploymentId),
    locale: row.locale,
    epoch: row.ownerEpoch,
    turn: row.turn,
    revision: row.revision,
    state
  }))

const notFound = (sessionId: string) =>
  new RuntimeSessionNotFound({ sessionId, message: `No runtime session ${sessionId} in this workspace` })

export const RuntimeSessionLive = RuntimeSession.toLayer(
  Effect.gen(function*() {
    const repo = yield* RuntimeSessionRepo
    const programs = yield* DraftPrograms
    const deployed = yield* DeploymentPrograms
    const address = yield* Entity.CurrentAddress
    const runner = yield* Entity.CurrentRunnerAddress
    const runnerName = `${runner.host}:${runner.port}`
    const sessionId = RuntimeSessionId.make(address.entityId)

    const claimed = yield* repo.claim(sessionId, runnerName)
    let session: Owned | undefined = Option.isSome(claimed) ? yield* Effect.orDie(owned(claimed.value)) : undefined
    if (session !== undefined) {
      yield* Effect.logDebug("Runtime session activated").pipe(
        Effect.annotateLogs({ sessionId, epoch: session.epoch, runner: runnerName })
      )
    }

    return RuntimeSession.of({
      Turn: Effect.fnUntraced(function*({ payload }) {
        const current = session
        if (
          current === undefined || current.workspaceId !== payload.workspaceId ||
          current.deploymentId !== payload.deploymentId
        ) {
          return yield* notFound(sessionId)
        }
        const prior = yield* repo.prior(sessionId, current.agentId, payload.idempotencyKey)
        if (prior.bodyHash !== null) {
          if (prior.bodyHash !== payload.bodyHash) {
            return yield* new IdempotencyKeyReused({
              idempotencyKey: payload.idempotencyKey,
              message: "This Idempotency-Key was already used in this session with a different body"
            })
          }
          return yield* Effect.orDie(decodeReply(prior.reply))
        }
        if (current.state.status !== "active") {
          return yield* new RuntimeSessionEnded({
            sessionId,
            status: current.state.status,
            message: `The session is ${current.state.status} and takes no more turns`
          })
        }
        if (prior.draftRevision === null) return yield* notFound(sessionId)

        // A deployment's session runs its immutable snapshot; a test session, the draft as it is now.
        const draft = current.deploymentId !== null
          ? yield* deployed.program(current.deploymentId, current.locale)
          : yield* programs.draft(current.workspaceId, current.agentId, {
            revision: prior.draftRevision,
            locale: current.locale
          }).pipe(Effect.catchTag("AssistantNotFound", () => notFound(sessionId)))
        const step = yield* Either.match(draft.program, {
          onLeft: (findings) => Effect.succeed(endedByDraft(current.state, findings)),
          onRight: (program) => advance(program, current.state, payload.input)
        })
        const facts = Either.match(draft.program, {
          onLeft: () => ({ intent: null, fallback: false }),
          onRight: (program) => turnFacts(program, current.state, payload.input, step)
        })

        const final = step.state.status !== "active"
        const reply: SimulatedTurnReply = {
          sessionId,
          turn: current.turn + 1,
          messages: step.messages,
          status: step.state.status,
          ended: final,
          traceId: payload.traceId,
          state: step.state,
          debug: { path: step.path, nlu: step.nlu }
        }
        const written = yield* repo.commit({
          sessionId,
          epoch: current.epoch,
          runner: runnerName,
          previousTurn: current.turn,
          revision: draft.revision,
          state: step.state,
          status: step.state.status,
          ended: final,
          idempotencyKey: payload.idempotencyKey,
          bodyHash: payload.bodyHash,
          intent: facts.intent,
          fallback: facts.fallback,
          input: yield* Effect.orDie(encodeInput(payload.input)),
          reply: yield* Effect.orDie(encodeReply(reply)),
          traceId: payload.traceId
        })
        if (!written) return yield* Effect.die(new FencedOut({ sessionId, epoch: current.epoch }))
        session = { ...current, turn: reply.turn, revision: draft.revision, state: step.state }
        yield* Effect.annotateCurrentSpan({ "session.turn": reply.turn, "session.epoch": current.epoch })
        return reply
      })
    })
  })
)
