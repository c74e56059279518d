/**
 * The `parley` command as an operator uses it: `openapi` prints the contract,
 * `migrate` brings a server database up to date, and `serve` in production
 * refuses to start without its secrets, naming every missing one.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { latestMigrationId } from "../../../src/persistence/Sql.js"
import { runParley } from "../../support/ParleyProcess.js"
import { emptyDatabase, withAdmin } from "../../support/TestDatabase.js"

describe("the parley command", () => {
  it("openapi prints the OpenAPI document of the contract", async () => {
    const { code, output } = await runParley(["openapi"], {})
    expect(code).toBe(0)
    const document = JSON.parse(output)
    expect(document.openapi).toBe("3.1.0")
    expect(Object.keys(document.paths)).toContain("/v1/agents/{agent_id}/flow/repair-node")
  }, 60_000)

  it.scopedLive("migrate brings a PostgreSQL server database to the current schema", () =>
    Effect.gen(function*() {
      const { name, url } = yield* emptyDatabase
      const { code, output } = yield* Effect.promise(() => runParley(["migrate"], { DATABASE_URL: url }))
      expect(code, output).toBe(0)
      const tables = yield* Effect.promise(() =>
        withAdmin((client) =>
          client.query(
            `SELECT to_regclass('parley_installation') AS installation, current_database() AS db,
              (SELECT max(migration_id) FROM effect_sql_migrations) AS latest`
          ), url)
      )
      expect(tables.rows[0]).toEqual({ installation: "parley_installation", db: name, latest: latestMigrationId })
    }), 60_000)

  it("serve in production refuses to start without its secrets, naming them", async () => {
    const { code, output } = await runParley(["serve"], { PARLEY_ENV: "production", PORT: "0" })
    expect(code).toBe(1)
    expect(output).toContain(
      "parley: PARLEY_ENV=production requires these settings, which are not set: DATABASE_URL, METRICS_TOKEN, " +
        "PARLEY_MASTER_KEY, PARLEY_JWT_PRIVATE_KEY, PARLEY_SMTP_URL, PARLEY_PUBLIC_URL"
    )
  }, 60_000)
})
