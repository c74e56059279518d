/**
 * Each test file gets its own PostgreSQL database, cloned from a template
 * that the global setup migrated once, so files run in parallel on clean data
 * and a clone takes milliseconds instead of a migration run.
 */
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import Pg from "pg"

/** The server the tests use; CI starts it (`.ci/run`). */
export const adminUrl = process.env["PARLEY_TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** The URL of another database on the same server. */
export const databaseUrl = (database: string, base = adminUrl): string => {
  const url = new URL(base)
  url.pathname = `/${database}`
  return url.toString()
}

const migrationsDir = fileURLToPath(new URL("../../src/persistence/migrations/", import.meta.url))

/** The template's name changes whenever a migration or the list of them does, so a stale template is never cloned. */
export const templateName = (): string => {
  const hash = Crypto.createHash("sha256")
  for (const file of Fs.readdirSync(migrationsDir).sort()) {
    hash.update(file).update(Fs.readFileSync(Path.join(migrationsDir, file)))
  }
  // The list of migrations that run lives beside them.
  hash.update(Fs.readFileSync(Path.join(migrationsDir, "..", "Sql.ts")))
  return `parley_template_${hash.digest("hex").slice(0, 12)}`
}

/** Run statements on the server's maintenance database. */
export const withAdmin = async <A>(f: (client: Pg.Client) => Promise<A>, url = adminUrl): Promise<A> => {
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

const scopedDatabase = (template: () => string | undefined) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const name = `parley_test_${Crypto.randomBytes(6).toString("hex")}`
      const from = template()
      await withAdmin((client) => client.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : ""}`))
      return { name, url: databaseUrl(name) }
    }),
    ({ name }) =>
      Effect.promise(() => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))
  )

/** A fresh database cloned from the migrated template, dropped when the scope closes. */
export const freshDatabase = scopedDatabase(templateName)

/** A plain `pg` connection to `url` for reading what a test left behind, closed when the scope closes. */
export const connectedClient = (url: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Pg.Client({ connectionString: url })
      await client.connect()
      return client
    }),
    (client) => Effect.promise(() => client.end())
  )

/** An empty database, never migrated, dropped when the scope closes. */
export const emptyDatabase = scopedDatabase(() => undefined)
