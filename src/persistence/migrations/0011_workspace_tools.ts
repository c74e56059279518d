import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Shared HTTP tools of a workspace. The request template (`definition`: input
 * schema, method, URL, headers, query, body, limits, reachable hosts) is one
 * JSON document, read and written whole, as the domain's `HttpToolDefinition`
 * has it; the name is unique per workspace.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE workspace_tools (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL,
      definition jsonb NOT NULL,
      created_by jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (workspace_id, name)
    )`
  ], { discard: true }))
