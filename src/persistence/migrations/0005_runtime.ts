import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Assistant conversations. A session row holds where the conversation stands
 * and who owns it now: `owner_epoch` grows by one each time a node activates
 * the session's entity, and every turn is written only while the writer's
 * epoch is still the current one (a fencing token), so two nodes can never
 * both advance a conversation. `runtime_session_owners` keeps every
 * activation for the record.
 *
 * A turn row is the turn's result, stored in the same statement that moves
 * the session on; its idempotency key is unique per session, so a retried or
 * redelivered turn finds its answer instead of running again. The rows are
 * also the transcript.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE runtime_sessions (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      agent_id uuid NOT NULL,
      source text NOT NULL CHECK (source IN ('draft', 'deployment')),
      deployment_id uuid,
      revision integer NOT NULL,
      locale text NOT NULL,
      state jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'ended', 'handed-off')),
      turn integer NOT NULL DEFAULT 0,
      started_by jsonb,
      end_user_id text,
      owner_epoch integer NOT NULL DEFAULT 0,
      owner_runner text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz,
      FOREIGN KEY (agent_id, workspace_id) REFERENCES assistants (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX runtime_sessions_agent ON runtime_sessions (workspace_id, agent_id, created_at)`,
    sql`CREATE TABLE runtime_turns (
      session_id uuid NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
      turn integer NOT NULL,
      idempotency_key text,
      body_hash text,
      input jsonb,
      reply jsonb NOT NULL,
      epoch integer NOT NULL,
      runner text,
      trace_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, turn),
      UNIQUE (session_id, idempotency_key)
    )`,
    sql`CREATE TABLE runtime_session_owners (
      session_id uuid NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
      epoch integer NOT NULL,
      runner text NOT NULL,
      activated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (session_id, epoch)
    )`
  ], { discard: true }))
