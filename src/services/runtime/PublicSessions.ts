/**
 * Assistant conversations on a deployment, for embeds: the same sessions and
 * the same `RuntimeSession` entity as editors' test sessions, run on the
 * deployment's immutable snapshot. The caller is the embed token's
 * deployment; a session of any other deployment (or of a draft) is not found:
 * the entity checks the turn's deployment, and the turn's message key names
 * it, so one deployment's token never reads another's stored replies. Public answers never carry the
 * state or the engine's debug view (variables may hold what tools returned).
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect, Either, Option } from "effect"
import type { EmbedCaller } from "../../domain/deployments/EmbedCaller.js"
import { NotReady } from "../../domain/HttpErrors.js"
import {
  type RuntimeSessionId,
  RuntimeSessionNotFound,
  type SessionStatus
} from "../../domain/runtime/RuntimeSession.js"
import type { PublicSessionStart } from "../../domain/runtime/SessionStart.js"
import type { SimulatedTurnReply, TurnInput, TurnReply } from "../../domain/runtime/Turn.js"
import { RuntimeSessionRepo } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { snapshot } from "../../persistence/Transaction.js"
import { DeploymentPrograms } from "./DeploymentPrograms.js"
import { openSession } from "./OpenSession.js"
import { transcriptOf } from "./RuntimeSessions.js"
import { TurnSender } from "./TurnSender.js"

const publicReply = (reply: SimulatedTurnReply): TurnReply => ({
  sessionId: reply.sessionId,
  turn: reply.turn,
  messages: reply.messages,
  status: reply.status,
  ended: reply.ended,
  traceId: reply.traceId
})

const notFound = (sessionId: string) =>
  new RuntimeSessionNotFound({ sessionId, message: `No session ${sessionId} on this deployment` })

export class PublicSessions extends Effect.Service<PublicSessions>()("parley/services/runtime/PublicSessions", {
  effect: Effect.gen(function*() {
    const repo = yield* RuntimeSessionRepo
    const sql = yield* SqlClient.SqlClient
    const programs = yield* DeploymentPrograms
    const sender = yield* TurnSender

    /** The session, when it runs on the caller's deployment. */
    const owned = (caller: EmbedCaller, sessionId: RuntimeSessionId) =>
      Effect.flatMap(
        repo.find(caller.workspaceId, sessionId),
        (row) =>
          Option.isSome(row) && row.value.deploymentId === caller.deploymentId
            ? Effect.succeed(row.value)
            : Effect.fail(notFound(sessionId))
      )

    const start = Effect.fn("PublicSessions.start")(function*(caller: EmbedCaller, request: PublicSessionStart) {
      const compiled = yield* programs.program(caller.deploymentId, request.locale)
      // A deployment's snapshot compiled when it was made; only an upgrade of the engine that no longer
      // accepts it makes this fail. The visitor cannot fix that (nor see the flow's findings): 503 and a log.
      const program = yield* Either.match(compiled.program, {
        onRight: Effect.succeed,
        onLeft: (findings) =>
          Effect.zipRight(
            Effect.logError("A deployment's snapshot does not compile on this version; redeploy it").pipe(
              Effect.annotateLogs({
                deploymentId: caller.deploymentId,
                findings: findings.map((finding) => finding.message)
              })
            ),
            Effect.fail(new NotReady({ message: "This Assistant is unavailable until it is deployed again" }))
          )
      })
      const reply = yield* openSession(repo, program, request.variables ?? {}, {
        workspaceId: caller.workspaceId,
        agentId: caller.agentId,
        source: "deployment",
        deploymentId: caller.deploymentId,
        revision: compiled.revision,
        locale: request.locale ?? compiled.language,
        startedBy: null,
        endUserId: request.endUserId ?? null
      })
      return publicReply(reply)
    })

    /** Sends a turn to the session's entity, once per Idempotency-Key (made here when the caller sent none). */
    const turn = Effect.fn("PublicSessions.turn")(function*(
      caller: EmbedCaller,
      sessionId: RuntimeSessionId,
      input: TurnInput,
      idempotencyKey: string | undefined
    ) {
      // The entity refuses a session of another deployment (and the message's key names the deployment, so
      // another deployment's request is never answered from this one's stored replies): no read needed here.
      const reply = yield* sender.send(sessionId, {
        workspaceId: caller.workspaceId,
        deploymentId: caller.deploymentId,
        input,
        idempotencyKey
      })
      return publicReply(reply)
    })

    /** The session's status and transcript, for a widget that reconnects: both of one moment. */
    const get = Effect.fn("PublicSessions.get")(function*(caller: EmbedCaller, sessionId: RuntimeSessionId) {
      const row = yield* owned(caller, sessionId)
      const status = row.status as SessionStatus
      return {
        sessionId,
        status,
        ended: status !== "active",
        turn: row.turn,
        startedAt: DateTime.unsafeFromDate(row.createdAt),
        transcript: yield* transcriptOf(yield* repo.turns(sessionId))
      }
    }, snapshot(sql))

    return { start, turn, get } as const
  }),
  dependencies: [DeploymentPrograms.Default]
}) {}
