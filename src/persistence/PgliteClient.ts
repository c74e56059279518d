/**
 * An embedded PostgreSQL for the zero-install default: one PGlite instance in
 * this process, exposed as both `SqlClient` and `PgClient` so every
 * repository, the migrator and the cluster's SQL storage run on it unchanged.
 *
 * PGlite is a single connection. Statements are serialized by a one-slot
 * semaphore; a transaction (or any reserved connection) holds the slot until
 * its scope closes, after COMMIT or ROLLBACK, so no other statement can land
 * inside it. Values are parsed with `pg`'s own type parsers, so results have
 * the same shapes as on a PostgreSQL server (int8 as string, bytea as Buffer,
 * interval as an object, dates in local time).
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, SqlError, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import type { Connection } from "@effect/sql/SqlConnection"
import { PGlite, type Results } from "@electric-sql/pglite"
import { vector } from "@electric-sql/pglite-pgvector"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { Context, Effect, Layer, type Scope, Stream } from "effect"
import * as Fs from "node:fs"
import Pg from "pg"
import type { PoolStats } from "./DatabaseInfo.js"

/** Options of the embedded client. */
export interface PgliteClientConfig {
  /** The directory that holds the database files; created if missing. */
  readonly dataDir: string
  readonly transformQueryNames?: ((name: string) => string) | undefined
  readonly transformResultNames?: ((name: string) => string) | undefined
  /** Whether the name transforms reach inside JSON values too (default `true`, as `PgClient`'s). */
  readonly transformJson?: boolean | undefined
  readonly spanAttributes?: Record<string, unknown> | undefined
}

/**
 * `pg`'s own text parser for every built-in type oid (and identity where `pg`
 * has none, as `pg` itself answers raw text for those).
 */
const pgParsers: Record<number, (value: string) => unknown> = Object.fromEntries(
  Array.from({ length: 5000 }, (_, oid) => [oid, Pg.types.getTypeParser(oid, "text") as (value: string) => unknown])
)

interface PgJson extends Statement.Custom<"PgJson", unknown> {}
const PgJson = Statement.custom<PgJson>("PgJson")

const fail = (message: string) => (cause: unknown) => new SqlError.SqlError({ cause, message })

/** Open PGlite on `config.dataDir` and build the client over it. */
export const make = (
  config: PgliteClientConfig
): Effect.Effect<
  { readonly client: PgClient.PgClient; readonly poolStats: Effect.Effect<PoolStats> },
  SqlError.SqlError,
  Scope.Scope | Reactivity.Reactivity
> =>
  Effect.gen(function*() {
    yield* Effect.try({
      try: () => Fs.mkdirSync(config.dataDir, { recursive: true }),
      catch: fail(`Cannot create the embedded database directory ${config.dataDir}`)
    })
    const db = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => PGlite.create(config.dataDir, { parsers: pgParsers, extensions: { pg_trgm, vector } }),
        catch: fail(`Cannot open the embedded database in ${config.dataDir}`)
      }),
      (db) => Effect.promise(() => db.close()).pipe(Effect.timeoutOption("5 seconds"))
    )
    const slot = yield* Effect.makeSemaphore(1)
    let busy = 0
    let waiting = 0
    /** Hold the single connection for the life of the scope. */
    const hold = Effect.acquireRelease(
      Effect.sync(() => waiting++).pipe(
        Effect.zipRight(slot.take(1)),
        Effect.ensuring(Effect.sync(() => waiting--)),
        Effect.zipRight(Effect.sync(() => busy = 1))
      ),
      () => Effect.zipRight(Effect.sync(() => busy = 0), slot.release(1))
    )
    const serialized = <A, E>(effect: Effect.Effect<A, E>) => Effect.scoped(Effect.zipRight(hold, effect))

    const compiler = PgClient.makeCompiler(config.transformQueryNames, config.transformJson ?? true)
    const transformRows = config.transformResultNames
      ? Statement.defaultTransforms(config.transformResultNames, config.transformJson ?? true).array
      : undefined

    const runRaw = (
      sql: string,
      params: ReadonlyArray<unknown>
    ): Effect.Effect<ReadonlyArray<Results>, SqlError.SqlError> =>
      Effect.tryPromise({
        // Without parameters the simple protocol runs several statements at once, as `pg` does.
        try: async (): Promise<ReadonlyArray<Results>> =>
          params.length === 0 ? db.exec(sql) : [await db.query(sql, params as Array<unknown>)] as Array<Results>,
        catch: fail("Failed to execute statement")
      }).pipe(Effect.uninterruptible)

    const rowsOf = (results: ReadonlyArray<Results>): ReadonlyArray<any> =>
      results.length === 1 ? results[0]!.rows : results.map((result) => result.rows)

    class ConnectionImpl implements Connection {
      constructor(readonly reserved: boolean) {}
      private serialized<A>(effect: Effect.Effect<A, SqlError.SqlError>) {
        return this.reserved ? effect : serialized(effect)
      }
      execute(
        sql: string,
        params: ReadonlyArray<unknown>,
        transform: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
      ) {
        const rows = Effect.map(this.serialized(runRaw(sql, params)), rowsOf)
        return transform ? Effect.map(rows, transform) : rows
      }
      executeRaw(sql: string, params: ReadonlyArray<unknown>) {
        return Effect.map(this.serialized(runRaw(sql, params)), (results) => {
          const last = results[results.length - 1]
          return {
            rows: last?.rows ?? [],
            rowCount: last?.affectedRows ?? last?.rows.length ?? 0,
            fields: last?.fields
          }
        })
      }
      executeWithoutTransform(sql: string, params: ReadonlyArray<unknown>) {
        return this.execute(sql, params, undefined)
      }
      executeValues(sql: string, params: ReadonlyArray<unknown>) {
        return this.serialized(
          Effect.tryPromise({
            try: () => db.query<Array<unknown>>(sql, params as Array<unknown>, { rowMode: "array" }),
            catch: fail("Failed to execute statement")
          }).pipe(Effect.uninterruptible)
        ).pipe(Effect.map((result) => result.rows))
      }
      executeUnprepared(
        sql: string,
        params: ReadonlyArray<unknown>,
        transform: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
      ) {
        return this.execute(sql, params, transform)
      }
      executeStream(
        sql: string,
        params: ReadonlyArray<unknown>,
        transform: (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
      ) {
        // PGlite has no cursors; the result is read whole, then streamed.
        return Stream.flatMap(Stream.fromEffect(this.execute(sql, params, transform)), Stream.fromIterable)
      }
    }

    const shared = new ConnectionImpl(false)
    // A reserved connection (a transaction) owns the single slot until its scope closes.
    const reserve = Effect.as(hold, new ConnectionImpl(true))

    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(shared),
      transactionAcquirer: reserve,
      compiler,
      transformRows,
      spanAttributes: [
        ...(config.spanAttributes ? Object.entries(config.spanAttributes) : []),
        ["db.system.name", "postgresql"],
        ["db.namespace", "embedded"]
      ]
    })

    const listen = (channel: string) =>
      Stream.asyncPush<string, SqlError.SqlError>((emit) =>
        Effect.acquireRelease(
          serialized(Effect.tryPromise({
            try: () => db.listen(channel, (payload) => emit.single(payload)),
            catch: fail("Failed to listen")
          })),
          (unlisten) => serialized(Effect.promise(() => unlisten()))
        )
      )

    const notify = (channel: string, payload: string) =>
      Effect.asVoid(shared.execute("SELECT pg_notify($1, $2)", [channel, payload], undefined))

    const pgClient = Object.assign(client, {
      [PgClient.TypeId]: PgClient.TypeId,
      config: { database: "embedded", applicationName: "parley" } satisfies PgClient.PgClientConfig,
      json: (value: unknown) => PgJson(value),
      listen,
      notify
    }) as PgClient.PgClient
    // The single connection, busy or idle; nothing queues outside the slot.
    const poolStats = Effect.sync((): PoolStats => ({ total: 1, idle: 1 - busy, waiting }))
    return { client: pgClient, poolStats }
  })

/** The change notifications that `SqlClient` needs, as `PgClient.layer` provides them. */
export const reactivity = Reactivity.layer

/** The embedded client, registered as both `PgClient` and `SqlClient`. */
export const layer = (
  config: PgliteClientConfig
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError> =>
  Layer.scopedContext(
    Effect.map(make(config), ({ client }) =>
      Context.make(PgClient.PgClient, client).pipe(Context.add(SqlClient.SqlClient, client)))
  ).pipe(Layer.provide(reactivity))
