import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Fiber, Stream, String } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import Pg from "pg"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { adminUrl } from "../../support/TestDatabase.js"

const tempDir = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-pglite-"))

const embedded = (dataDir: string) =>
  PgliteClient.layer({
    dataDir,
    transformQueryNames: String.camelToSnake,
    transformResultNames: String.snakeToCamel
  })

/** A query whose every column has a type that `pg` parses in its own way. */
const typeProbe = `SELECT 9007199254740993::int8 AS big, '\\x0102ff'::bytea AS bytes,
  '1 day 02:03:04'::interval AS span, 1.50::numeric AS exact, '2024-02-29'::date AS day,
  '2024-02-29T12:34:56.789Z'::timestamptz AS moment, '{"a":[1,2]}'::jsonb AS doc,
  ARRAY[1,2]::int8[] AS bigs, ARRAY['x','y']::text[] AS words, 7::int4 AS small, true AS flag,
  '12:00'::time AS clock, 'abc'::varchar AS label`

describe("PgliteClient", () => {
  layer(embedded(tempDir()), { excludeTestServices: true })("one instance", (it) => {
    it.effect("parses every value exactly as pg does against a PostgreSQL server", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [embeddedRow] = yield* sql.unsafe<Record<string, unknown>>(typeProbe)
        const serverRow = yield* Effect.promise(async () => {
          const client = new Pg.Client({ connectionString: adminUrl })
          await client.connect()
          try {
            return (await client.query(typeProbe)).rows[0]
          } finally {
            await client.end()
          }
        })
        expect(embeddedRow).toEqual(serverRow)
        expect(typeof embeddedRow!.big).toBe("string")
        expect(Buffer.isBuffer(embeddedRow!.bytes)).toBe(true)
      }))

    it.effect("binds the parameters of concurrent statements to their own statement", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const answers = yield* Effect.forEach(
          Array.from({ length: 300 }, (_, i) => i),
          (i) =>
            Effect.map(sql<{ value: number; echo: string }>`SELECT ${i}::int AS value, ${`n${i}`} AS echo`, ([row]) =>
              row),
          { concurrency: "unbounded" }
        )
        answers.forEach((row, i) =>
          expect(row).toEqual({ value: i, echo: `n${i}` })
        )
      }))

    it.effect("rolls a nested transaction back to its savepoint and commits the outer one", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE nested (id int PRIMARY KEY)`
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO nested VALUES (1)`
          yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO nested VALUES (2)`, Effect.fail("inner"))).pipe(
            Effect.ignore
          )
          yield* sql`INSERT INTO nested VALUES (3)`
        }))
        expect((yield* sql<{ id: number }>`SELECT id FROM nested ORDER BY id`).map((row) => row.id)).toEqual([1, 3])
      }))

    it.effect("keeps other statements out of an open transaction until it ends", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE isolated (id int PRIMARY KEY)`
        const transaction = yield* Effect.fork(
          sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO isolated VALUES (1)`
            yield* Effect.sleep("100 millis")
            return yield* Effect.fail("abort")
          })).pipe(Effect.ignore)
        )
        yield* Effect.sleep("20 millis")
        // Runs after the transaction has rolled back, so it neither joins nor sees it.
        yield* sql`INSERT INTO isolated VALUES (2)`
        yield* Fiber.join(transaction)
        expect((yield* sql<{ id: number }>`SELECT id FROM isolated`).map((row) => row.id)).toEqual([2])
      }))

    it.effect("delivers notifications to listeners", () =>
      Effect.gen(function*() {
        const pg = yield* PgClient.PgClient
        const received = yield* Effect.fork(pg.listen("parley_test").pipe(Stream.take(2), Stream.runCollect))
        yield* Effect.sleep("50 millis")
        yield* pg.notify("parley_test", "one")
        yield* pg.notify("parley_test", "two")
        expect([...yield* Fiber.join(received)]).toEqual(["one", "two"])
      }))

    it.effect("runs several statements without parameters at once, as pg does", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const results = yield* sql.unsafe(`SELECT 1 AS a; SELECT 2 AS b`)
        expect(results).toEqual([[{ a: 1 }], [{ b: 2 }]])
      }))

    it.effect("maps names between camelCase and snake_case", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE named (some_id int, created_by text)`
        yield* sql`INSERT INTO named ${sql.insert({ someId: 1, createdBy: "ada" })}`
        expect(yield* sql`SELECT * FROM named`).toEqual([{ someId: 1, createdBy: "ada" }])
      }))
  })

  it.live("keeps its data in the directory across a close and a reopen", () =>
    Effect.gen(function*() {
      const dir = tempDir()
      const write = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.zipRight(sql`CREATE TABLE kept (note text)`, sql`INSERT INTO kept VALUES ('still here')`))
      const read = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ note: string }>`SELECT note FROM kept`)
      yield* Effect.provide(write, embedded(dir))
      expect(yield* Effect.provide(read, embedded(dir))).toEqual([{ note: "still here" }])
    }))

  it.live("creates a data directory whose parent does not exist yet", () =>
    Effect.gen(function*() {
      const dir = Path.join(tempDir(), "a", "b", "c")
      const rows = yield* Effect.provide(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1 AS one`),
        embedded(dir)
      )
      expect(rows).toEqual([{ one: 1 }])
      expect(Fs.existsSync(dir)).toBe(true)
    }))
})
