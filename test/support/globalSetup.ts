/**
 * Once per test run: make sure the migrated template database exists (the
 * name carries a hash of the migrations), and drop templates of older
 * migration sets and databases that crashed runs left behind.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import { MigratorLive, SqlLive } from "../../src/persistence/Sql.js"
import { databaseUrl, templateName, withAdmin } from "./TestDatabase.js"

export default async function setup() {
  const template = templateName()
  const existing = await withAdmin((client) =>
    client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'parley_template_%' OR datname LIKE 'parley_test_%'`
    )
  )
  const names = existing.rows.map((row) => row.datname)
  for (const name of names) {
    if (name !== template && name.startsWith("parley_template_")) {
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
