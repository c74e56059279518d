/**
 * Assistant conversations on the draft, for the people who build them:
 * start one (the opening runs here, on the node that took the request, and is
 * stored with the new session), send turns (to the session's entity, wherever
 * in the cluster it lives), read one back with its transcript.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option, Schema } from "effect"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import {
  RuntimeSession as RuntimeSessionModel,
  type RuntimeSessionId,
  RuntimeSessionNotFound
} from "../../domain/runtime/RuntimeSession.js"
import { FlowNotRunnable, type SessionStart } from "../../domain/runtime/SessionStart.js"
import { TranscriptEntry } from "../../domain/runtime/Transcript.js"
import { SimulatedTurnReply, TurnInput } from "../../domain/runtime/Turn.js"
import { RuntimeSessionRepo, type SessionRow, type TurnRow } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { snapshot } from "../../persistence/Transaction.js"
import { DraftPrograms } from "./DraftPrograms.js"
import { openSession } from "./OpenSession.js"
import { TurnSender } from "./TurnSender.js"

const decodeReply = Schema.decodeUnknown(SimulatedTurnReply)
const decodeInput = Schema.decodeUnknown(TurnInput)
const decodeSession = Schema.decodeUnknown(RuntimeSessionModel.json)

/** The transcript of stored turns: each user input (turns 1..), each reply, oldest first. */
export const transcriptOf = (turns: ReadonlyArray<TurnRow>) =>
  Effect.forEach(turns, (row) =>
    Effect.gen(function*() {
      const at = row.createdAt.toISOString()
      const reply = yield* decodeReply(row.reply)
      const bot = { role: "bot" as const, turn: row.turn, messages: reply.messages, at }
      if (row.turn === 0 || row.idempotencyKey === null) return [bot]
      const input = yield* decodeInput(row.input)
      return [{ role: "user" as const, turn: row.turn, input, at, idempotencyKey: row.idempotencyKey }, bot]
    })).pipe(
      Effect.map((entries) => entries.flat()),
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(TranscriptEntry))),
      Effect.orDie
    )

const sessionJson = (row: SessionRow) =>
  decodeSession({
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    endedAt: row.endedAt === null ? null : row.endedAt.toISOString()
  }).pipe(Effect.orDie)

export class RuntimeSessions extends Effect.Service<RuntimeSessions>()("parley/services/runtime/RuntimeSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* RuntimeSessionRepo
    const sql = yield* SqlClient.SqlClient
    const programs = yield* DraftPrograms
    const sender = yield* TurnSender

    const start = Effect.fn("RuntimeSessions.start")(function*(principal: Principal, request: SessionStart) {
      const draft = yield* programs.draft(principal.workspaceId, request.agentId, {
        ...(request.locale === undefined ? {} : { locale: request.locale })
      })
      const program = yield* Either.match(draft.program, {
        onRight: Effect.succeed,
        onLeft: (findings) =>
          Effect.fail(
            new FlowNotRunnable({
              agentId: request.agentId,
              findings,
              message: `The draft flow cannot run: ${findings.map((finding) => finding.message).join("; ")}`
            })
          )
      })
      return yield* openSession(repo, program, request.variables ?? {}, {
        workspaceId: principal.workspaceId,
        agentId: request.agentId,
        source: "draft",
        deploymentId: null,
        revision: draft.revision,
        locale: request.locale ?? draft.language,
        startedBy: actorOf(principal),
        endUserId: null
      })
    })

    /** Sends a turn to the session's entity; a missing key is made here, so the turn still runs once. */
    const turn = Effect.fn("RuntimeSessions.turn")(function*(
      principal: Principal,
      sessionId: RuntimeSessionId,
      input: TurnInput,
      idempotencyKey: string | undefined
    ) {
      return yield* sender.send(sessionId, {
        workspaceId: principal.workspaceId,
        // Editors test drafts: a visitor's session on a deployment is not theirs to talk in.
        deploymentId: null,
        input,
        idempotencyKey
      })
    })

    const get = Effect.fn("RuntimeSessions.get")(function*(principal: Principal, sessionId: RuntimeSessionId) {
      const row = yield* repo.find(principal.workspaceId, sessionId)
      if (Option.isNone(row)) {
        return yield* new RuntimeSessionNotFound({
          sessionId,
          message: `No runtime session ${sessionId} in this workspace`
        })
      }
      return {
        session: yield* sessionJson(row.value),
        transcript: yield* transcriptOf(yield* repo.turns(sessionId))
      }
    }, snapshot(sql))

    return { start, turn, get }
  })
}) {}
