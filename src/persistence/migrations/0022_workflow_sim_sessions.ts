import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Workflow simulator sessions (DESIGN.md §8), each held by a
 * `WorkflowSimSession` entity.
 *
 * - `workflow_sim_sessions`: the draft graph and revision as they were at the
 *   start (a snapshot: later edits do not reach the session), the input, where
 *   the session stands (`status`, what it waits for, its variables, why it
 *   failed), the turns sent after the opening (`turn_count`) and the entity's
 *   fencing epoch (`owner_epoch`, as `runtime_sessions`). Listed per workflow,
 *   newest first.
 * - `workflow_sim_turns`: one row per turn (0 is the opening run), with its
 *   Idempotency-Key (unique per session) and body hash, and its stored result,
 *   which answers a repeat of the key.
 * - `workflow_sim_journal`: what the session's run has done, by the
 *   interpreter's execution key: each node execution's result (`result`) and
 *   each wait's payload (`payload`). A turn replays the run from the trigger
 *   with these, so nothing stored runs again; the turn that wrote an entry is
 *   kept for inspection.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE workflow_sim_sessions (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      workflow_id uuid NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
      revision integer NOT NULL CHECK (revision >= 1),
      graph jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('running', 'waiting-input', 'completed', 'failed')),
      turn_count integer NOT NULL DEFAULT 0 CHECK (turn_count >= 0),
      input jsonb NOT NULL,
      waiting_for jsonb,
      variables jsonb NOT NULL DEFAULT '{}'::jsonb,
      error jsonb,
      started_by jsonb NOT NULL,
      owner_epoch integer NOT NULL DEFAULT 0,
      owner_runner text,
      started_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      ended_at timestamptz
    )`,
    sql`CREATE INDEX workflow_sim_sessions_by_workflow
      ON workflow_sim_sessions (workflow_id, started_at DESC, id DESC)`,
    sql`CREATE TABLE workflow_sim_turns (
      session_id uuid NOT NULL REFERENCES workflow_sim_sessions(id) ON DELETE CASCADE,
      turn integer NOT NULL CHECK (turn >= 0),
      idempotency_key text,
      body_hash text,
      request jsonb,
      result jsonb NOT NULL,
      epoch integer NOT NULL,
      trace_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (session_id, turn),
      UNIQUE (session_id, idempotency_key)
    )`,
    sql`CREATE TABLE workflow_sim_journal (
      session_id uuid NOT NULL REFERENCES workflow_sim_sessions(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('result', 'payload')),
      key text NOT NULL,
      turn integer NOT NULL,
      value jsonb NOT NULL,
      PRIMARY KEY (session_id, kind, key)
    )`
  ], { discard: true }))
