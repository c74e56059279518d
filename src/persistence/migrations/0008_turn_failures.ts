import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Poison turns. `unsettled_activations` counts the activations of a session's
 * entity since one last settled (finished a message: committed a turn, or
 * answered one without a defect); an activation that follows an unsettled one
 * may be replaying a turn that killed its node or its entity. Such a turn's
 * attempts are counted in `runtime_turn_failures`, and past the bound
 * (docs/CLUSTER.md) it is recorded there as failed: its key answers
 * `TurnFailed` from then on, and the session is left as it was.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE runtime_sessions ADD COLUMN unsettled_activations integer NOT NULL DEFAULT 0`,
    sql`CREATE TABLE runtime_turn_failures (
      session_id uuid NOT NULL REFERENCES runtime_sessions(id) ON DELETE CASCADE,
      idempotency_key text NOT NULL,
      body_hash text NOT NULL,
      attempts integer NOT NULL,
      failed boolean NOT NULL DEFAULT false,
      reason text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (session_id, idempotency_key)
    )`
  ], { discard: true }))
