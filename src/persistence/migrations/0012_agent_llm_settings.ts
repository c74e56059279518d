import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The workspace's LLM for AI agents: one row per workspace, written at its
 * first change (a workspace without a row has the defaults: no connection of
 * its own). `primary_connection` and `fallback_connection` (`primary` is a
 * reserved word) hold an `LlmConnection` as JSON (the API key by vault name
 * only, never a key), or null; `updated_by` is the Actor who saved it last.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE agent_llm_settings (
      workspace_id uuid PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
      primary_connection jsonb,
      fallback_connection jsonb,
      updated_by jsonb,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  ], { discard: true }))
