import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Account controls: when a session last proved every factor of its user
 * (sign-in or re-authentication; ending other sessions needs it to be recent),
 * and whether an operator has disabled an account.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE sessions ADD COLUMN authenticated_at timestamptz`,
    sql`UPDATE sessions SET authenticated_at = created_at`,
    sql`ALTER TABLE sessions ALTER COLUMN authenticated_at SET NOT NULL`,
    sql`ALTER TABLE users ADD COLUMN disabled_at timestamptz`
  ], { discard: true }))
