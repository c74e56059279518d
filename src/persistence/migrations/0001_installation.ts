import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The installation: one row recording when this database was first used and how often a node started on it. */
export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`
      CREATE TABLE parley_installation (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        starts integer NOT NULL,
        last_started_at timestamptz NOT NULL,
        last_version text NOT NULL
      )
    `
)
