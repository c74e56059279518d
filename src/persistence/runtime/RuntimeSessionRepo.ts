import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AssistantId } from "../../domain/assistants/Assistant.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { RuntimeSessionId } from "../../domain/runtime/RuntimeSession.js"

/** A `runtime_sessions` row; `state`, `startedBy` and the like stay encoded JSON for the caller to decode. */
export const SessionRow = Schema.Struct({
  id: RuntimeSessionId,
  workspaceId: WorkspaceId,
  agentId: AssistantId,
  source: Schema.Literal("draft", "deployment"),
  deploymentId: Schema.NullOr(Schema.String),
  revision: Schema.Number,
  locale: Schema.String,
  state: Schema.parseJson(),
  status: Schema.String,
  turn: Schema.Number,
  startedBy: Schema.NullOr(Schema.parseJson()),
  endUserId: Schema.NullOr(Schema.String),
  ownerEpoch: Schema.Number,
  ownerRunner: Schema.NullOr(Schema.String),
  /** Activations since the session's entity last finished a message (a claim counts itself). */
  unsettledActivations: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  endedAt: Schema.NullOr(Schema.DateFromSelf)
})
export type SessionRow = typeof SessionRow.Type

/** A `runtime_turns` row: one turn's input and the reply it got, under the owner epoch that wrote it. */
export const TurnRow = Schema.Struct({
  turn: Schema.Number,
  idempotencyKey: Schema.NullOr(Schema.String),
  bodyHash: Schema.NullOr(Schema.String),
  input: Schema.NullOr(Schema.parseJson()),
  reply: Schema.parseJson(),
  epoch: Schema.Number,
  runner: Schema.NullOr(Schema.String),
  createdAt: Schema.DateFromSelf
})
export type TurnRow = typeof TurnRow.Type

/** A new session with its opening (turn 0), written together. */
export interface NewSession {
  readonly id: RuntimeSessionId
  readonly workspaceId: WorkspaceId
  readonly agentId: AssistantId
  readonly source: "draft" | "deployment"
  readonly deploymentId: string | null
  readonly revision: number
  readonly locale: string
  readonly state: unknown
  readonly status: string
  readonly startedBy: unknown
  readonly endUserId: string | null
  readonly opening: unknown
  readonly traceId: string
}

/** A turn to commit: the session's new position and the turn's row. */
export interface TurnCommit {
  readonly sessionId: RuntimeSessionId
  /** The writer's owner epoch: the write happens only while it is still current. */
  readonly epoch: number
  readonly runner: string
  /** The turn number the session is at before this turn. */
  readonly previousTurn: number
  readonly revision: number
  readonly state: unknown
  readonly status: string
  readonly ended: boolean
  readonly idempotencyKey: string
  readonly bodyHash: string
  /** What analytics reads: the intent recognised, if any, and whether the message was a fallback. */
  readonly intent: string | null
  readonly fallback: boolean
  readonly input: unknown
  readonly reply: unknown
  readonly traceId: string
}

const json = (value: unknown) => JSON.stringify(value)

/*
 * JSON columns are read as text and parsed here: the client turns snake_case
 * names into camelCase in results, and would do so inside JSON values too
 * (a variable `order_id` would come back `orderId`).
 */
const sessionColumns = `id, workspace_id, agent_id, source, deployment_id, revision, locale, state::text AS state,
  status, turn, started_by::text AS started_by, end_user_id, owner_epoch, owner_runner, unsettled_activations,
  created_at, updated_at, ended_at`

/** Assistant conversations: sessions, their turns, and who owned them when. */
export class RuntimeSessionRepo extends Effect.Service<RuntimeSessionRepo>()("parley/persistence/RuntimeSessionRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const insertSession = (session: NewSession) =>
      sql`INSERT INTO runtime_sessions
            (id, workspace_id, agent_id, source, deployment_id, revision, locale, state, status, turn, started_by,
             end_user_id, ended_at)
          VALUES (${session.id}, ${session.workspaceId}, ${session.agentId}, ${session.source},
            ${session.deploymentId}, ${session.revision}, ${session.locale}, ${json(session.state)}::jsonb,
            ${session.status}, 0, ${session.startedBy === null ? null : json(session.startedBy)}::jsonb,
            ${session.endUserId}, ${session.status === "active" ? null : new Date()})`

    const insertOpening = (session: NewSession) =>
      sql`INSERT INTO runtime_turns (session_id, turn, reply, epoch, trace_id)
          VALUES (${session.id}, 0, ${json(session.opening)}::jsonb, 0, ${session.traceId})`

    const claim = SqlSchema.findOne({
      Request: Schema.Struct({ id: RuntimeSessionId, runner: Schema.String }),
      Result: SessionRow,
      execute: ({ id, runner }) =>
        sql`WITH claimed AS (
              UPDATE runtime_sessions SET owner_epoch = owner_epoch + 1, owner_runner = ${runner},
                unsettled_activations = unsettled_activations + 1
              WHERE id = ${id} RETURNING *
            ), recorded AS (
              INSERT INTO runtime_session_owners (session_id, epoch, runner)
              SELECT id, owner_epoch, owner_runner FROM claimed
            )
            SELECT ${sql.literal(sessionColumns)} FROM claimed`
    })

    const prior = SqlSchema.single({
      Request: Schema.Struct({ sessionId: RuntimeSessionId, agentId: AssistantId, key: Schema.String }),
      Result: Schema.Struct({
        draftRevision: Schema.NullOr(Schema.Number),
        bodyHash: Schema.NullOr(Schema.String),
        reply: Schema.NullOr(Schema.parseJson()),
        failedHash: Schema.NullOr(Schema.String),
        failedAttempts: Schema.NullOr(Schema.Number)
      }),
      execute: ({ agentId, key, sessionId }) =>
        sql`SELECT (SELECT revision FROM assistants WHERE id = ${agentId}) AS draft_revision, t.body_hash,
              t.reply::text AS reply, f.body_hash AS failed_hash, f.attempts AS failed_attempts
            FROM (SELECT 1) AS one
            LEFT JOIN runtime_turns t ON t.session_id = ${sessionId} AND t.idempotency_key = ${key}
            LEFT JOIN runtime_turn_failures f
              ON f.session_id = ${sessionId} AND f.idempotency_key = ${key} AND f.failed`
    })

    const commit = (turn: TurnCommit) =>
      sql<{ turn: number }>`WITH moved AS (
            UPDATE runtime_sessions
            SET state = ${json(turn.state)}::jsonb, status = ${turn.status}, turn = ${turn.previousTurn + 1},
                revision = ${turn.revision}, updated_at = now(), unsettled_activations = 0,
                ended_at = CASE WHEN ${turn.ended} THEN now() ELSE ended_at END
            WHERE id = ${turn.sessionId} AND owner_epoch = ${turn.epoch} AND turn = ${turn.previousTurn}
            RETURNING id
          )
          INSERT INTO runtime_turns
            (session_id, turn, idempotency_key, body_hash, intent, fallback, input, reply, epoch, runner, trace_id)
          SELECT id, ${
        turn.previousTurn + 1
      }, ${turn.idempotencyKey}, ${turn.bodyHash}, ${turn.intent}, ${turn.fallback},
            ${json(turn.input)}::jsonb,
            ${json(turn.reply)}::jsonb, ${turn.epoch}, ${turn.runner}, ${turn.traceId}
          FROM moved
          RETURNING turn`

    const attempt = SqlSchema.single({
      Request: Schema.Struct({
        sessionId: RuntimeSessionId,
        key: Schema.String,
        bodyHash: Schema.String,
        reason: Schema.String,
        bound: Schema.Number,
        settle: Schema.Boolean
      }),
      Result: Schema.Struct({ attempts: Schema.Number, failed: Schema.Boolean }),
      execute: ({ bodyHash, bound, key, reason, sessionId, settle }) =>
        sql`WITH settled AS (
              UPDATE runtime_sessions SET unsettled_activations = 0 WHERE id = ${sessionId} AND ${settle}
            )
            INSERT INTO runtime_turn_failures AS f (session_id, idempotency_key, body_hash, attempts, failed, reason)
            VALUES (${sessionId}, ${key}, ${bodyHash}, 1, ${bound} <= 1, ${reason})
            ON CONFLICT (session_id, idempotency_key) DO UPDATE
              SET attempts = f.attempts + 1, failed = f.attempts + 1 >= ${bound}, body_hash = EXCLUDED.body_hash,
                  reason = EXCLUDED.reason, updated_at = now()
            RETURNING attempts, failed`
    })

    const owner = SqlSchema.findOne({
      Request: RuntimeSessionId,
      Result: Schema.Struct({ ownerEpoch: Schema.Number, turn: Schema.Number }),
      execute: (id) => sql`SELECT owner_epoch, turn FROM runtime_sessions WHERE id = ${id}`
    })

    const find = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: WorkspaceId, id: RuntimeSessionId }),
      Result: SessionRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${
          sql.literal(sessionColumns)
        } FROM runtime_sessions WHERE id = ${id} AND workspace_id = ${workspaceId}`
    })

    const turns = SqlSchema.findAll({
      Request: RuntimeSessionId,
      Result: TurnRow,
      execute: (sessionId) =>
        sql`SELECT turn, idempotency_key, body_hash, input::text AS input, reply::text AS reply, epoch, runner, created_at
            FROM runtime_turns WHERE session_id = ${sessionId} ORDER BY turn`
    })

    return {
      /** Stores a new session and its opening in one transaction. */
      create: (session: NewSession) =>
        sql.withTransaction(Effect.zipRight(insertSession(session), insertOpening(session))).pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("RuntimeSessionRepo.create")
        ),
      /** Takes ownership for a runner: the next owner epoch, recorded; `None` when no such session exists. */
      claim: (id: RuntimeSessionId, runner: string) =>
        claim({ id, runner }).pipe(Effect.orDie, Effect.withSpan("RuntimeSessionRepo.claim")),
      /** In one round trip: the Assistant's draft revision now, and the turn already stored under `key`, if any. */
      prior: (sessionId: RuntimeSessionId, agentId: AssistantId, key: string) =>
        prior({ sessionId, agentId, key }).pipe(Effect.orDie, Effect.withSpan("RuntimeSessionRepo.prior")),
      /**
       * Writes a turn and the session's new position in one statement, only
       * while `epoch` still owns the session and it is still at
       * `previousTurn`: false when another owner has taken over.
       */
      commit: (turn: TurnCommit) =>
        commit(turn).pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("RuntimeSessionRepo.commit")
        ),
      /**
       * Counts a failed attempt of the turn under `key`: `failed` once `bound`
       * attempts have failed, after which the key answers `TurnFailed`. With
       * `settle`, the session's unsettled activations start again from zero
       * (the failure was seen and counted here, so the restart it causes must
       * not count it again).
       */
      recordAttempt: (
        sessionId: RuntimeSessionId,
        key: string,
        bodyHash: string,
        reason: string,
        options: { readonly bound: number; readonly settle: boolean }
      ) =>
        attempt({ sessionId, key, bodyHash, reason, ...options }).pipe(
          Effect.orDie,
          Effect.withSpan("RuntimeSessionRepo.recordAttempt")
        ),
      /** The entity finished a message without committing a turn: the session is no longer suspect. */
      settle: (sessionId: RuntimeSessionId, epoch: number) =>
        sql`UPDATE runtime_sessions SET unsettled_activations = 0 WHERE id = ${sessionId} AND owner_epoch = ${epoch}`
          .pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("RuntimeSessionRepo.settle")),
      /** The session's current owner epoch and turn, to tell why a fenced write changed nothing. */
      owner: (sessionId: RuntimeSessionId) =>
        owner(sessionId).pipe(Effect.orDie, Effect.withSpan("RuntimeSessionRepo.owner")),
      find: (workspaceId: WorkspaceId, id: RuntimeSessionId) =>
        find({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("RuntimeSessionRepo.find")),
      turns: (sessionId: RuntimeSessionId) =>
        turns(sessionId).pipe(Effect.orDie, Effect.withSpan("RuntimeSessionRepo.turns"))
    }
  })
}) {}
