import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Deployments of Assistants: immutable snapshots (settings, intents, flow as
 * a Parley document) at a draft revision, each served to embeds through one
 * `cdp_` token of which only the SHA-256 is stored (and its last characters,
 * to tell tokens apart). `status` goes from `live` to `revoked` once, for good.
 *
 * Public runtime sessions name their deployment (`runtime_sessions.deployment_id`,
 * already there since 0005, now a foreign key). Each turn records what
 * analytics reads: the intent the classifier recognised, if any, and whether
 * the message was a fallback (out of scope, or a question's last failed
 * attempt). Rows written before this migration keep `NULL` / `false`.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE deployments (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      agent_id uuid NOT NULL,
      name text NOT NULL DEFAULT '',
      status text NOT NULL CHECK (status IN ('live', 'revoked')),
      revision integer NOT NULL,
      nlu_model_version text NOT NULL,
      intents jsonb NOT NULL,
      allowed_origins jsonb NOT NULL,
      rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute BETWEEN 1 AND 10000),
      token_hash text NOT NULL UNIQUE,
      token_hint text NOT NULL,
      snapshot jsonb NOT NULL,
      created_by jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      revoked_by jsonb,
      FOREIGN KEY (agent_id, workspace_id) REFERENCES assistants (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX deployments_workspace ON deployments (workspace_id, created_at, id)`,
    sql`CREATE INDEX deployments_agent ON deployments (workspace_id, agent_id, created_at)`,
    sql`ALTER TABLE runtime_sessions
      ADD CONSTRAINT runtime_sessions_deployment FOREIGN KEY (deployment_id) REFERENCES deployments(id) ON DELETE CASCADE`,
    sql`CREATE INDEX runtime_sessions_deployment ON runtime_sessions (deployment_id, created_at)
      WHERE deployment_id IS NOT NULL`,
    sql`ALTER TABLE runtime_turns ADD COLUMN intent text, ADD COLUMN fallback boolean NOT NULL DEFAULT false`
  ], { discard: true }))
