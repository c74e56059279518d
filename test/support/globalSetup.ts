/**
 * Once per test run: check the machine has what the tests need, and make
 * sure the migrated template database exists (its name carries a hash of the
 * migrations).
 *
 * Several checkouts may test against one server at once, each at its own
 * commit and so with its own template: a template is dropped only once no run
 * has used it for a day (each run records its use in the database's comment),
 * and runs build templates one at a time, under an advisory lock.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import type Pg from "pg"
import { ensureBundle } from "../../scripts/bundle.mjs"
import { MigratorLive, SqlLive } from "../../src/persistence/Sql.js"
import { ensurePostgres, ensurePromtool } from "./Prerequisites.js"
import { databaseUrl, templateName, withAdmin } from "./TestDatabase.js"

/** How long a template of another migration set is kept after its last use. */
const KEEP_UNUSED_MS = 24 * 60 * 60 * 1000
/** The comment a template carries, followed by when a run last used it (ISO 8601). */
const USED = "parley test template, last used "
/** Taken while templates are listed, dropped and built (an arbitrary number, the tests' own). */
const TEMPLATES_LOCK = 7_340_712_346

/** When a template was last used, from its comment; undefined when it has none (made before comments). */
export const lastUsed = (comment: string | null): number | undefined => {
  if (comment === null || !comment.startsWith(USED)) return undefined
  const at = Date.parse(comment.slice(USED.length))
  return Number.isNaN(at) ? undefined : at
}

/** Which of the existing templates to drop: another set's, unused for `KEEP_UNUSED_MS`, and leftover builds. */
export const staleTemplates = (
  existing: ReadonlyArray<{ readonly name: string; readonly comment: string | null }>,
  current: string,
  now: number
): Array<string> =>
  existing.filter(({ comment, name }) => {
    if (name === current) return false
    // Builds happen under the lock this run holds: one that is there was left by a run that died.
    if (name.endsWith("_building")) return true
    const used = lastUsed(comment)
    return used === undefined || now - used > KEEP_UNUSED_MS
  }).map(({ name }) => name)

const markUsed = (client: Pg.Client, name: string) =>
  client.query(`COMMENT ON DATABASE ${name} IS '${USED}${new Date().toISOString()}'`)

export default async function setup() {
  await ensurePostgres()
  ensurePromtool()
  // The program the tests start as `parley` (ParleyProcess, LocalCluster): the bundle `npm start` runs.
  await ensureBundle()
  const template = templateName()
  await withAdmin(async (client) => {
    await client.query(`SELECT pg_advisory_lock(${TEMPLATES_LOCK})`)
    try {
      const existing = await client.query<{ name: string; comment: string | null }>(
        `SELECT datname AS name, shobj_description(oid, 'pg_database') AS comment
         FROM pg_database WHERE datname LIKE 'parley_template_%'`
      )
      for (const name of staleTemplates(existing.rows, template, Date.now())) {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      }
      if (!existing.rows.some((row) => row.name === template)) {
        const building = `${template}_building`
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
        await client.query(`CREATE DATABASE ${building}`)
        await Effect.runPromise(
          Effect.void.pipe(
            Effect.provide(MigratorLive.pipe(Layer.provide(SqlLive))),
            Effect.withConfigProvider(ConfigProvider.fromJson({ DATABASE_URL: databaseUrl(building) }))
          )
        )
        await client.query(`ALTER DATABASE ${building} RENAME TO ${template}`)
      }
      await markUsed(client, template)
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${TEMPLATES_LOCK})`)
    }
  })
}
