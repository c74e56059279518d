/**
 * Simulator sessions (`workflow_sim_sessions`), their turns and their
 * journal. The session's entity owns its row through `owner_epoch` (as
 * `runtime_sessions`): a turn is committed (the session's new position, the
 * turn's row and its journal entries) by one statement that writes only
 * while the committing epoch still owns the session and the session is where
 * the turn found it, so a node that lost the session cannot write over its
 * new owner, and no turn is committed twice.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { JsonObject, JsonValue } from "../../domain/Json.js"
import { NodeResult } from "../../domain/workflows/engine/NodeResult.js"
import { WorkflowId, WorkflowSimSessionId } from "../../domain/workflows/Ids.js"
import { type RunFailure } from "../../domain/workflows/NodeTrace.js"
import { PendingWait } from "../../domain/workflows/PendingWait.js"
import { WorkflowGraph } from "../../domain/workflows/WorkflowGraph.js"
import { WorkflowSimSession, WorkflowSimStatus } from "../../domain/workflows/WorkflowSimSession.js"
import { WorkflowSimTurnResult } from "../../domain/workflows/WorkflowSimTurn.js"
import { graphJson } from "./WorkflowRepo.js"

/** A new session: the draft snapshot it runs and who started it; it is `running` until its opening is committed. */
export interface SessionInsert {
  readonly id: WorkflowSimSessionId
  readonly workspaceId: WorkspaceId
  readonly workflowId: WorkflowId
  readonly revision: number
  readonly graph: WorkflowGraph
  readonly input: JsonObject
  readonly startedBy: Actor
  readonly at: Date
}

/** What the session's entity reads before a turn. */
export const SessionState = Schema.Struct({
  id: WorkflowSimSessionId,
  workspaceId: WorkspaceId,
  workflowId: WorkflowId,
  graph: Schema.parseJson(WorkflowGraph),
  status: WorkflowSimStatus,
  turnCount: Schema.Number,
  input: JsonObject,
  waitingFor: Schema.NullOr(PendingWait),
  startedBy: Actor,
  ownerEpoch: Schema.Number
})
export type SessionState = typeof SessionState.Type

/** A turn stored under an Idempotency-Key: what a repeat of the key is answered from. */
export const PriorTurn = Schema.Struct({
  turn: Schema.Number,
  bodyHash: Schema.String,
  result: WorkflowSimTurnResult
})
export type PriorTurn = typeof PriorTurn.Type

/** One journal entry: a node execution's result, or the payload a wait received, by its execution key. */
export type JournalEntry =
  | { readonly kind: "result"; readonly key: string; readonly value: NodeResult }
  | { readonly kind: "payload"; readonly key: string; readonly value: JsonValue }

const JournalRow = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("result"), key: Schema.String, value: NodeResult }),
  Schema.Struct({ kind: Schema.Literal("payload"), key: Schema.String, value: JsonValue })
)

/** A turn to commit: where the session stands after it, the turn's row and the journal entries it added. */
export interface TurnCommit {
  readonly sessionId: WorkflowSimSessionId
  readonly epoch: number
  /** 0 for the opening run (the session must still be `running`), else the number after `turn_count`. */
  readonly turn: number
  readonly status: WorkflowSimStatus
  readonly waitingFor: PendingWait | null
  readonly variables: JsonObject
  readonly error: RunFailure | null
  readonly idempotencyKey: string | null
  readonly bodyHash: string | null
  readonly request: JsonValue | null
  readonly result: WorkflowSimTurnResult
  readonly traceId: string
  readonly entries: ReadonlyArray<JournalEntry>
}

const json = (value: unknown) => JSON.stringify(value)

const encodeResult = Schema.encode(WorkflowSimTurnResult)
const encodeWait = Schema.encode(Schema.NullOr(PendingWait))
const encodeResults = Schema.encode(Schema.Array(JournalRow))

const sessionColumns = `id, workspace_id, workflow_id, revision, status, turn_count, input, started_by,
  started_at, updated_at, ended_at`

export class WorkflowSimSessionRepo extends Effect.Service<WorkflowSimSessionRepo>()(
  "parley/persistence/WorkflowSimSessionRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const decodeSessions = Schema.decodeUnknown(Schema.Array(WorkflowSimSession))
      const decodeState = Schema.decodeUnknown(SessionState)
      const decodePrior = Schema.decodeUnknown(PriorTurn)
      const decodeResult = Schema.decodeUnknown(WorkflowSimTurnResult)
      const decodeJournal = Schema.decodeUnknown(Schema.Array(JournalRow))
      const columns = sql.literal(sessionColumns)

      return {
        /** Store a new session, `running` until its opening is committed. */
        insert: (row: SessionInsert) =>
          sql`INSERT INTO workflow_sim_sessions (id, workspace_id, workflow_id, revision, graph, status, input,
              started_by, started_at, updated_at)
            VALUES (${row.id}, ${row.workspaceId}, ${row.workflowId}, ${row.revision}, ${graphJson(row.graph)}::jsonb,
              'running', ${json(row.input)}::jsonb, ${json(row.startedBy)}::jsonb, ${row.at}, ${row.at})`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("WorkflowSimSessionRepo.insert")
          ),

        /** The session, if it belongs to the workspace. */
        find: (workspaceId: WorkspaceId, id: WorkflowSimSessionId) =>
          sql`SELECT ${columns} FROM workflow_sim_sessions WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
            Effect.flatMap(decodeSessions),
            Effect.map((rows) => Option.fromNullable(rows[0])),
            Effect.orDie,
            Effect.withSpan("WorkflowSimSessionRepo.find")
          ),

        /** One page of a workflow's sessions, newest first, and how many it has. */
        page: (workspaceId: WorkspaceId, workflowId: WorkflowId, limit: number, offset: number) =>
          Effect.all([
            sql`SELECT ${columns} FROM workflow_sim_sessions
              WHERE workspace_id = ${workspaceId} AND workflow_id = ${workflowId}
              ORDER BY started_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.flatMap(decodeSessions)),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM workflow_sim_sessions
              WHERE workspace_id = ${workspaceId} AND workflow_id = ${workflowId}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("WorkflowSimSessionRepo.page")
          ),

        /** Take ownership: the next owner epoch, recorded; none when there is no such session. */
        claim: (id: string, runner: string) =>
          sql<{ ownerEpoch: number }>`UPDATE workflow_sim_sessions
            SET owner_epoch = owner_epoch + 1, owner_runner = ${runner}
            WHERE id = ${id} RETURNING owner_epoch`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.ownerEpoch)),
            Effect.orDie,
            Effect.withSpan("WorkflowSimSessionRepo.claim")
          ),

        /** The session as a turn reads it, and the turn stored under `idempotencyKey` (none for the opening). */
        current: (id: WorkflowSimSessionId, idempotencyKey: string | null) =>
          Effect.gen(function*() {
            const [row] = yield* sql`SELECT id, workspace_id, workflow_id, graph::text AS graph, status, turn_count,
                input, waiting_for, started_by, owner_epoch
              FROM workflow_sim_sessions WHERE id = ${id}`
            if (row === undefined) return Option.none()
            const state = yield* decodeState(row)
            const [prior] = idempotencyKey === null ? [] : yield* sql`SELECT turn, body_hash, result
              FROM workflow_sim_turns WHERE session_id = ${id} AND idempotency_key = ${idempotencyKey}`
            return Option.some({
              state,
              prior: prior === undefined ? Option.none<PriorTurn>() : Option.some(yield* decodePrior(prior))
            })
          }).pipe(Effect.orDie, Effect.withSpan("WorkflowSimSessionRepo.current")),

        /** The stored result of a turn, if it was committed. */
        turnResult: (id: WorkflowSimSessionId, turn: number) =>
          sql<{ result: unknown }>`SELECT result FROM workflow_sim_turns WHERE session_id = ${id} AND turn = ${turn}`
            .pipe(
              Effect.flatMap((rows) =>
                rows[0] === undefined
                  ? Effect.succeed(Option.none())
                  : Effect.map(decodeResult(rows[0].result), Option.some)
              ),
              Effect.orDie,
              Effect.withSpan("WorkflowSimSessionRepo.turnResult")
            ),

        /** Every journal entry of the session. */
        journal: (id: WorkflowSimSessionId) =>
          sql`SELECT kind, key, value FROM workflow_sim_journal WHERE session_id = ${id}`.pipe(
            Effect.flatMap(decodeJournal),
            Effect.orDie,
            Effect.withSpan("WorkflowSimSessionRepo.journal")
          ),

        /**
         * Commit a turn in one statement (entries are read with `->`, which
         * keeps a JSON `null` payload a JSON value, not an SQL NULL): the session's new position, the
         * turn's row and its journal entries, written only while `epoch` owns
         * the session and the session is still where the turn found it
         * (`running` for the opening, at turn `turn - 1` and waiting for a
         * turn); false when nothing was written.
         */
        commit: (commit: TurnCommit) =>
          Effect.gen(function*() {
            const ended = commit.status === "completed" || commit.status === "failed"
            const where = commit.turn === 0
              ? sql`status = 'running'`
              : sql`status = 'waiting-input' AND turn_count = ${commit.turn - 1}`
            const entries = yield* encodeResults(commit.entries)
            const result = yield* encodeResult(commit.result)
            const waitingFor = yield* encodeWait(commit.waitingFor)
            const rows = yield* sql<{ done: number }>`WITH owned AS (
                UPDATE workflow_sim_sessions SET status = ${commit.status}, turn_count = ${commit.turn},
                  waiting_for = ${waitingFor === null ? null : json(waitingFor)}::jsonb,
                  variables = ${json(commit.variables)}::jsonb,
                  error = ${commit.error === null ? null : json(commit.error)}::jsonb,
                  updated_at = now(), ended_at = ${ended ? sql`now()` : sql`NULL`}
                WHERE id = ${commit.sessionId} AND owner_epoch = ${commit.epoch} AND ${where}
                RETURNING id
              ), turn AS (
                INSERT INTO workflow_sim_turns (session_id, turn, idempotency_key, body_hash, request, result, epoch,
                  trace_id, created_at)
                SELECT id, ${commit.turn}, ${commit.idempotencyKey}, ${commit.bodyHash},
                  ${commit.request === null ? null : json(commit.request)}::jsonb, ${json(result)}::jsonb,
                  ${commit.epoch}, ${commit.traceId}, now()
                FROM owned
              ), journal AS (
                INSERT INTO workflow_sim_journal (session_id, kind, key, turn, value)
                SELECT owned.id, e->>'kind', e->>'key', ${commit.turn}, e->'value'
                FROM owned, jsonb_array_elements(${json(entries)}::jsonb) AS e
              )
              SELECT count(*)::int AS done FROM owned`
            return rows[0]?.done === 1
          }).pipe(Effect.orDie, Effect.withSpan("WorkflowSimSessionRepo.commit"))
      } as const
    })
  }
) {}
