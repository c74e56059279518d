/**
 * The behaviour of the `RuntimeSession` entity. On activation it takes
 * ownership of its session (the next owner epoch, recorded) and loads it;
 * each turn then
 *
 * 1. answers from storage when the turn's idempotency key was already used
 *    (the stored reply for the same body, `IdempotencyKeyReused` for another,
 *    `TurnFailed` for a turn that was given up);
 * 2. runs the flow engine on the session's state, within the turn time limit;
 * 3. stores the reply and the new state in one statement that succeeds only
 *    while this activation's epoch still owns the session.
 *
 * A delivery that repeats (a retry, a redelivery after a crash, the same key
 * on two nodes) therefore advances the conversation once. If the fenced write
 * finds that another activation took over, the turn dies as a defect: the
 * entity restarts, takes ownership again and reruns it from step 1.
 *
 * A poison turn (one that dies, overruns its time limit or takes its node
 * down on every attempt) is tried a bounded number of times and then recorded
 * as failed (`TurnFailed`), so it cannot stall its session or, replayed at
 * every start, its node. Failures the turn cannot be blamed for (the database
 * unreachable, another owner) are not counted.
 */
import { Entity } from "@effect/cluster"
import { SqlError } from "@effect/sql"
import { Cause, Data, Effect, Either, Option, Schema } from "effect"
import { TurnLimits } from "../config/Settings.js"
import type { AssistantId } from "../domain/assistants/Assistant.js"
import { DeploymentId } from "../domain/deployments/Deployment.js"
import { excerpt } from "../domain/Excerpt.js"
import { IdempotencyKeyReused } from "../domain/Idempotency.js"
import type { WorkspaceId } from "../domain/identity/Ids.js"
import { advance } from "../domain/runtime/engine/FlowEngine.js"
import {
  RuntimeSessionEnded,
  RuntimeSessionId,
  RuntimeSessionNotFound,
  SessionState,
  TurnFailed
} from "../domain/runtime/RuntimeSession.js"
import { SimulatedTurnReply, TurnInput } from "../domain/runtime/Turn.js"
import { turnFacts } from "../domain/runtime/TurnFacts.js"
import { endedByDraft } from "../domain/runtime/UnrunnableDraft.js"
import { RuntimeSessionRepo, type SessionRow } from "../persistence/runtime/RuntimeSessionRepo.js"
import { DeploymentPrograms } from "../services/runtime/DeploymentPrograms.js"
import { DraftPrograms } from "../services/runtime/DraftPrograms.js"
import { RuntimeSession, type TurnPayload } from "./RuntimeSession.js"

/** Another activation owns the session now; this one must stop writing. */
class FencedOut extends Data.TaggedError("FencedOut")<{ readonly sessionId: string; readonly epoch: number }> {
  override get message() {
    return `Session ${this.sessionId} has a newer owner than epoch ${this.epoch}; taking it over again`
  }
}

/**
 * The session moved on in the database without this activation knowing: a
 * turn was committed but its result never reached the entity's memory (the
 * write was cut off between the two). The entity reloads and reruns.
 */
class MemoryBehind extends Data.TaggedError("MemoryBehind")<{
  readonly sessionId: string
  readonly remembered: number
  readonly stored: number
}> {
  override get message() {
    return `Session ${this.sessionId} is at turn ${this.stored} in the database but turn ${this.remembered} in memory; reloading it`
  }
}

/** The turn computed for longer than the turn time limit. */
class TurnOverran extends Data.TaggedError("TurnOverran")<{ readonly limit: string }> {
  override get message() {
    return `The turn computed for longer than ${this.limit}`
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

/**
 * Whether a defect is the infrastructure's rather than the turn's: the
 * database unreachable, out of resources, shutting down or asking for a
 * retry (SQLSTATE classes 08, 40, 53, 57, or no SQLSTATE at all: a socket
 * error), another owner, or memory that fell behind. Those are retried
 * without counting against the turn.
 */
const notTheTurnsFault = (defect: unknown): boolean => {
  if (defect instanceof FencedOut || defect instanceof MemoryBehind) return true
  if (!(defect instanceof SqlError.SqlError)) return false
  const code = (defect.cause as { readonly code?: unknown } | undefined)?.code
  return typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code) || ["08", "40", "53", "57"].includes(code.slice(0, 2))
}

/** A reason to store: no NUL (PostgreSQL refuses it in text) and no half characters. */
const storableReason = (text: string) => excerpt(text.replace(/\u0000/g, "\uFFFD"), 1000)

export const RuntimeSessionLive = RuntimeSession.toLayer(
  Effect.gen(function*() {
    const repo = yield* RuntimeSessionRepo
    const programs = yield* DraftPrograms
    const deployed = yield* DeploymentPrograms
    const limits = yield* TurnLimits.pipe(Effect.orDie)
    const address = yield* Entity.CurrentAddress
    const runner = yield* Entity.CurrentRunnerAddress
    const runnerName = `${runner.host}:${runner.port}`
    const sessionId = RuntimeSessionId.make(address.entityId)

    const claimed = yield* repo.claim(sessionId, runnerName)
    let session: Owned | undefined = Option.isSome(claimed) ? yield* Effect.orDie(owned(claimed.value)) : undefined
    /**
     * An earlier activation stopped without finishing a message (its node died,
     * its entity died, or it only answered repeats): the first turn this one
     * runs may be the one that killed it, so its attempt is counted first.
     */
    let suspect = Option.isSome(claimed) && claimed.value.unsettledActivations > 1
    if (session !== undefined) {
      yield* Effect.logDebug("Runtime session activated").pipe(
        Effect.annotateLogs({ sessionId, epoch: session.epoch, runner: runnerName, suspect })
      )
    }

    /** This activation finished a message without a defect: the session is no longer suspect. */
    const settle = Effect.suspend(() => {
      if (!suspect || session === undefined) return Effect.void
      suspect = false
      return repo.settle(sessionId, session.epoch)
    })

    const turnFailed = (payload: TurnPayload, attempts: number) =>
      new TurnFailed({
        sessionId,
        idempotencyKey: payload.idempotencyKey,
        attempts,
        message: `This message could not be processed (${attempts} failed attempts) and will not be tried again; ` +
          "the conversation is unchanged and takes other messages"
      })

    /**
     * Counts a failed attempt of this turn: `TurnFailed` once the bound is
     * reached. A failure seen here settles the session (`settle`), so the
     * restart it causes does not count it twice; an attempt counted before it
     * runs leaves the session unsettled, so that if it takes the node down,
     * the next activation counts again.
     */
    const countFailure = (payload: TurnPayload, reason: string, settle: boolean) =>
      Effect.flatMap(
        repo.recordAttempt(sessionId, payload.idempotencyKey, payload.bodyHash, storableReason(reason), {
          bound: limits.attempts,
          settle
        }),
        ({ attempts, failed }) =>
          Effect.zipRight(
            (failed ? Effect.logError : Effect.logWarning)(
              failed
                ? "A turn failed on every attempt; recorded as failed"
                : "A turn attempt failed; it will be tried again"
            ).pipe(Effect.annotateLogs({ sessionId, idempotencyKey: payload.idempotencyKey, attempts, reason })),
            Effect.succeed(failed ? Option.some(turnFailed(payload, attempts)) : Option.none())
          )
      )

    /** Steps 2 and 3 for an active session: compute within the time limit, then commit and remember. */
    const run = (current: Owned, payload: TurnPayload, draftRevision: number) =>
      Effect.gen(function*() {
        const computed = yield* Effect.gen(function*() {
          // A deployment's session runs its immutable snapshot; a test session, the draft as it is now.
          const draft = current.deploymentId !== null
            ? yield* deployed.program(current.deploymentId, current.locale)
            : yield* programs.draft(current.workspaceId, current.agentId, {
              revision: draftRevision,
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
          return { draft, step, facts }
        }).pipe(
          Effect.timeoutFail({
            duration: limits.timeLimit,
            onTimeout: () => new TurnOverran({ limit: `${limits.timeLimit}` })
          }),
          Effect.catchTag("TurnOverran", Effect.die)
        )
        const { draft, facts, step } = computed
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
        const commit = {
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
        }
        // The commit and the entity's memory of it go together: nothing may cut in between.
        return yield* Effect.uninterruptible(Effect.gen(function*() {
          if (!(yield* repo.commit(commit))) {
            const now = yield* repo.owner(sessionId)
            if (Option.isSome(now) && now.value.ownerEpoch === current.epoch) {
              return yield* Effect.die(
                new MemoryBehind({ sessionId, remembered: current.turn, stored: now.value.turn })
              )
            }
            return yield* Effect.die(new FencedOut({ sessionId, epoch: current.epoch }))
          }
          session = { ...current, turn: reply.turn, revision: draft.revision, state: step.state }
          suspect = false
          return reply
        }))
      })

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
        if (prior.bodyHash !== null || prior.failedHash !== null) {
          yield* settle
          if ((prior.bodyHash ?? prior.failedHash) !== payload.bodyHash) {
            return yield* new IdempotencyKeyReused({
              idempotencyKey: payload.idempotencyKey,
              message: "This Idempotency-Key was already used in this session with a different body"
            })
          }
          if (prior.bodyHash === null) return yield* turnFailed(payload, prior.failedAttempts ?? limits.attempts)
          return yield* Effect.orDie(decodeReply(prior.reply))
        }
        if (current.state.status !== "active") {
          yield* settle
          return yield* new RuntimeSessionEnded({
            sessionId,
            status: current.state.status,
            message: `The session is ${current.state.status} and takes no more turns`
          })
        }
        if (prior.draftRevision === null) return yield* notFound(sessionId)

        if (suspect) {
          // Counted before it runs: if it takes the node down again, the count stays.
          const given = yield* countFailure(payload, "its node or its entity stopped while running it", false)
          suspect = false
          if (Option.isSome(given)) return yield* given.value
        }

        return yield* run(current, payload, prior.draftRevision).pipe(
          Effect.catchAllCause((cause): Effect.Effect<never, RuntimeSessionNotFound | TurnFailed> => {
            const defects = [...Cause.defects(cause)]
            // Typed refusals pass; a defect that is not the turn's fault is retried as it is (the entity restarts).
            if (defects.length === 0 || defects.some(notTheTurnsFault)) return Effect.failCause(cause)
            return Effect.flatMap(
              countFailure(payload, Cause.pretty(cause), true),
              (given): Effect.Effect<never, RuntimeSessionNotFound | TurnFailed> =>
                Option.isSome(given) ? Effect.fail(given.value) : Effect.failCause(cause)
            )
          })
        )
      })
    })
  })
)
