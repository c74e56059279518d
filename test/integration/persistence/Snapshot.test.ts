/**
 * `snapshot`: reads as of one moment. Against PostgreSQL and the embedded
 * PGlite: a write committed by another connection between two reads of one
 * snapshot is not seen by the second (the same two reads outside one are, the
 * skew it prevents; on the embedded database, with one connection, a writer
 * waits for the snapshot's transaction to end, so no write can come between);
 * a snapshot refuses to write; inside a transaction it reads in that one (no
 * SET TRANSACTION after its first statement).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Redacted, String } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { snapshot, transaction } from "../../../src/persistence/Transaction.js"
import { emptyDatabase } from "../../support/TestDatabase.js"

const server = Layer.unwrapScoped(
  Effect.map(emptyDatabase, ({ url }) => PgClient.layer({ url: Redacted.make(url), maxConnections: 4 }))
)
const embedded = PgliteClient.layer({
  dataDir: Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-snapshot-")),
  transformQueryNames: String.camelToSnake,
  transformResultNames: String.snakeToCamel
})

/** The table's values, and a write of another connection (another fiber, outside the reader's transaction). */
const setUp = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE IF NOT EXISTS notes (n integer NOT NULL)`
  yield* sql`TRUNCATE notes`
  yield* sql`INSERT INTO notes VALUES (1)`
  const count = Effect.map(sql<{ count: number }>`SELECT count(*)::int AS count FROM notes`, ([row]) => row!.count)
  // A fiber started from the test's own context: no transaction of the reader reaches it.
  const context = yield* Effect.context<never>()
  const writeElsewhere = Effect.promise(() =>
    Effect.runPromise(Effect.provide(sql`INSERT INTO notes VALUES (2)`, context).pipe(Effect.orDie))
  )
  return { sql, count, writeElsewhere }
})

const cases = (
  name: string,
  database: Layer.Layer<SqlClient.SqlClient, unknown>,
  options: { concurrentWriter: boolean }
) =>
  layer(database, { excludeTestServices: true, timeout: 60_000 })(name, (it) => {
    // The embedded database has one connection: a writer waits for the reader's transaction to end.
    it.effect.skipIf(!options.concurrentWriter)(
      "two reads of one snapshot do not see a write committed between them; outside one they do",
      () =>
        Effect.gen(function*() {
          const { count, sql, writeElsewhere } = yield* setUp
          const inSnapshot = yield* Effect.gen(function*() {
            const before = yield* count
            yield* writeElsewhere
            return [before, yield* count]
          }).pipe(snapshot(sql))
          expect(inSnapshot).toEqual([1, 1])
          expect(yield* count).toBe(2)

          const skewed = yield* Effect.gen(function*() {
            const before = yield* count
            yield* writeElsewhere
            return [before, yield* count]
          })
          expect(skewed).toEqual([2, 3])
        })
    )

    it.effect("a snapshot refuses to write (a defect: it is for reads)", () =>
      Effect.gen(function*() {
        const { count, sql } = yield* setUp
        const exit = yield* Effect.exit(snapshot(sql)(sql`INSERT INTO notes VALUES (9)`))
        const defect = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.dieOption(exit.cause)) : undefined
        expect(defect).toBeInstanceOf(SqlError)
        // 25006: read_only_sql_transaction.
        expect((defect as SqlError).cause).toMatchObject({ code: "25006" })
        expect(yield* count).toBe(1)
      }))

    it.effect("inside a transaction a snapshot reads in it, and sees its writes", () =>
      Effect.gen(function*() {
        const { count, sql } = yield* setUp
        const seen = yield* Effect.gen(function*() {
          yield* sql`INSERT INTO notes VALUES (5)`
          return yield* snapshot(sql)(count)
        }).pipe(transaction(sql))
        expect(seen).toBe(2)
      }))
  })

cases("snapshot on PostgreSQL", server, { concurrentWriter: true })
cases("snapshot on the embedded database", embedded, { concurrentWriter: false })
