import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An Assistant's out-of-scope threshold becomes optional: NULL is the
 * automatic threshold its intents' cross-validation chooses
 * (`OutOfScopeThreshold`). 0.5 was the default every Assistant created
 * without a threshold received, and the value the automatic one replaces, so
 * those drafts become automatic; any other value was chosen and stays.
 * Deployments keep the threshold their snapshot froze.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE assistants ALTER COLUMN nlu_threshold DROP NOT NULL`,
    sql`UPDATE assistants SET nlu_threshold = NULL WHERE nlu_threshold = 0.5`
  ], { discard: true }))
