/**
 * The one way a service runs work in a database transaction: everything the
 * effect writes commits together or not at all (inside another transaction,
 * as a savepoint), and a database error is a defect, not a typed failure: a
 * caller can do nothing about it, and the HTTP layer answers it as the
 * outage it is. The effect's own typed failures (a 409, a 404) roll the
 * transaction back and pass through unchanged.
 *
 *     const transactional = transaction(sql)
 *     const rename = Effect.fn("Things.rename")(function*(...) { ... }, transactional)
 */
import { type SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** `effect` in one transaction of `sql`, its database errors made defects. */
export const transaction =
  (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
    Effect.catchAll(
      sql.withTransaction(effect),
      (error) => error instanceof SqlError ? Effect.die(error) : Effect.fail(error as Exclude<E, SqlError>)
    )
