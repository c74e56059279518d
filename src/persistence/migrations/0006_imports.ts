import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The history of imports into Assistants: what was read (`format`), into
 * which Assistant, with what result and report. A failed import (nothing
 * usable read) is recorded too. The history outlives the Assistant: deleting
 * it leaves `agent_id` empty.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`
      CREATE TABLE imports (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        agent_id uuid REFERENCES assistants (id) ON DELETE SET NULL,
        format text NOT NULL CHECK (format IN ('drawio', 'mermaid', 'rasa', 'dialogflow', 'parley')),
        status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
        target text NOT NULL CHECK (target IN ('new', 'replace')),
        revision integer,
        report jsonb NOT NULL,
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )
    `,
    sql`CREATE INDEX imports_workspace ON imports (workspace_id, created_at DESC, id DESC)`
  ], { discard: true }))
