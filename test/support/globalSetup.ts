/**
 * Once per test run: check the machine has what the tests need, and make
 * sure the migrated template database exists (its name carries a hash of the
 * migrations; templates of older migration sets are dropped).
 */
import { ConfigProvider, Effect, Layer } from "effect"
import { MigratorLive, SqlLive } from "../../src/persistence/Sql.js"
import { ensurePostgres, ensurePromtool } from "./Prerequisites.js"
import { databaseUrl, templateName, withAdmin } from "./TestDatabase.js"

export default async function setup() {
  await ensurePostgres()
  ensurePromtool()
  const template = templateName()
  const existing = await withAdmin((client) =>
    client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'parley_template_%'`
    )
  )
  const names = existing.rows.map((row) => row.datname)
  for (const name of names) {
    if (name !== template && !name.endsWith("_building")) {
      await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    }
  }
  if (names.includes(template)) return
  const building = `${template}_building`
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`))
  await withAdmin((client) => client.query(`CREATE DATABASE ${building}`))
  await Effect.runPromise(
    Effect.void.pipe(
      Effect.provide(MigratorLive.pipe(Layer.provide(SqlLive))),
      Effect.withConfigProvider(ConfigProvider.fromJson({ DATABASE_URL: databaseUrl(building) }))
    )
  )
  await withAdmin((client) => client.query(`ALTER DATABASE ${building} RENAME TO ${template}`))
}
