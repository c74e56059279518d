import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { LlmConnection } from "../../domain/settings/LlmConnection.js"

/** The workspace's LLM settings as stored, or its defaults (no connection) when it never saved any. */
export const AgentLlmSettingsRow = Schema.Struct({
  workspaceId: WorkspaceId,
  primaryConnection: Schema.NullOr(Schema.parseJson(LlmConnection)),
  fallbackConnection: Schema.NullOr(Schema.parseJson(LlmConnection)),
  embeddingsConnection: Schema.NullOr(Schema.parseJson(LlmConnection)),
  updatedBy: Schema.NullOr(Schema.parseJson(Actor)),
  updatedAt: Schema.DateFromSelf
})
export type AgentLlmSettingsRow = typeof AgentLlmSettingsRow.Type

/** A change to store: every connection (null clears one), who saved it and when. */
export interface AgentLlmSettingsWrite {
  readonly workspaceId: WorkspaceId
  readonly primaryConnection: LlmConnection | null
  readonly fallbackConnection: LlmConnection | null
  readonly embeddingsConnection: LlmConnection | null
  readonly updatedBy: Actor
  readonly updatedAt: Date
}

/*
 * JSON columns are read as text: the client would rename keys inside them. A
 * workspace without a row reads as its defaults, dated from its creation; the
 * locked read follows the insert of the row, so it joins (a lock cannot take
 * the nullable side of an outer join).
 */
const read = (lock: boolean) =>
  `SELECT w.id AS workspace_id, s.primary_connection::text AS primary_connection,
    s.fallback_connection::text AS fallback_connection,
    s.embeddings_connection::text AS embeddings_connection, s.updated_by::text AS updated_by,
    COALESCE(s.updated_at, w.created_at) AS updated_at
  FROM workspaces w ${lock ? "JOIN" : "LEFT JOIN"} agent_llm_settings s ON s.workspace_id = w.id
  WHERE w.id = $1${lock ? " FOR UPDATE OF s" : ""}`

const json = (value: unknown) => (value === null ? null : JSON.stringify(value))

/** `agent_llm_settings`: one row per workspace that changed its LLM settings. */
export class AgentLlmSettingsRepo extends Effect.Service<AgentLlmSettingsRepo>()(
  "parley/persistence/settings/AgentLlmSettingsRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const find = SqlSchema.single({
        Request: WorkspaceId,
        Result: AgentLlmSettingsRow,
        execute: (workspaceId) => sql.unsafe(read(false), [workspaceId])
      })
      const findLocked = SqlSchema.single({
        Request: WorkspaceId,
        Result: AgentLlmSettingsRow,
        execute: (workspaceId) => sql.unsafe(read(true), [workspaceId])
      })

      return {
        /** The workspace's settings, or its defaults. */
        find: (workspaceId: WorkspaceId) =>
          find(workspaceId).pipe(Effect.orDie, Effect.withSpan("AgentLlmSettingsRepo.find")),
        /**
         * The settings, locked until the transaction ends, so concurrent changes
         * apply one after the other (each to what the other stored); the row is
         * created first when the workspace never saved any. Inside a transaction only.
         */
        findForUpdate: (workspaceId: WorkspaceId) =>
          sql`INSERT INTO agent_llm_settings (workspace_id) VALUES (${workspaceId}) ON CONFLICT DO NOTHING`.pipe(
            Effect.zipRight(findLocked(workspaceId)),
            Effect.orDie,
            Effect.withSpan("AgentLlmSettingsRepo.findForUpdate")
          ),
        save: (row: AgentLlmSettingsWrite) =>
          sql`UPDATE agent_llm_settings SET
              primary_connection = ${json(row.primaryConnection)}::jsonb,
              fallback_connection = ${json(row.fallbackConnection)}::jsonb,
              embeddings_connection = ${json(row.embeddingsConnection)}::jsonb,
              updated_by = ${json(row.updatedBy)}::jsonb,
              updated_at = ${row.updatedAt}
            WHERE workspace_id = ${row.workspaceId}`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AgentLlmSettingsRepo.save")
          )
      } as const
    })
  }
) {}
