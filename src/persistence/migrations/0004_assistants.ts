import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Scripted Assistants: their settings, their intents and their draft flow
 * graph. The Assistant's `revision` counts writes to the draft (intents and
 * flow), so a write checks and bumps it on the one row. Intents and flows
 * reference their Assistant together with its workspace, so a row can never
 * name an Assistant of another workspace, and they go when it goes.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`
      CREATE TABLE assistants (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL,
        language text NOT NULL,
        nlu_threshold double precision NOT NULL,
        revision integer NOT NULL CHECK (revision >= 1),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (id, workspace_id)
      )
    `,
    sql`CREATE INDEX assistants_workspace ON assistants (workspace_id, created_at, id)`,
    sql`
      CREATE TABLE assistant_intents (
        id uuid PRIMARY KEY,
        agent_id uuid NOT NULL,
        workspace_id uuid NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        utterances jsonb NOT NULL,
        slots jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (agent_id, name),
        FOREIGN KEY (agent_id, workspace_id) REFERENCES assistants (id, workspace_id) ON DELETE CASCADE
      )
    `,
    sql`CREATE INDEX assistant_intents_agent ON assistant_intents (agent_id, created_at, id)`,
    sql`
      CREATE TABLE assistant_flows (
        agent_id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL,
        nodes jsonb NOT NULL,
        edges jsonb NOT NULL,
        subflows jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        FOREIGN KEY (agent_id, workspace_id) REFERENCES assistants (id, workspace_id) ON DELETE CASCADE
      )
    `
  ], { discard: true }))
