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
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { Effect } from "effect"

/** `effect` with its database errors made defects; its own typed failures unchanged. */
const sqlErrorsAsDefects = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
  Effect.catchAll(
    effect,
    (error) => error instanceof SqlError ? Effect.die(error) : Effect.fail(error as Exclude<E, SqlError>)
  )

/** `effect` in one transaction of `sql`, its database errors made defects. */
export const transaction =
  (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
    sqlErrorsAsDefects(sql.withTransaction(effect))

/**
 * `effect`'s reads as of one moment: a REPEATABLE READ, READ ONLY transaction, so an answer built
 * from several statements (a row and its children) never pairs a write that committed between them
 * with the state before it (in READ COMMITTED each statement sees its own moment). Inside another
 * transaction it runs in that one, as it is.
 */
export const snapshot =
  (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError>, R> =>
    Effect.flatMap(
      Effect.serviceOption(SqlClient.TransactionConnection),
      (outer) =>
        outer._tag === "Some"
          ? sqlErrorsAsDefects(effect)
          : transaction(sql)(Effect.zipRight(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`, effect))
    )
