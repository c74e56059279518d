import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { Installation } from "../domain/Installation.js"

/** Reads and records the installation row. */
export class InstallationRepo extends Effect.Service<InstallationRepo>()("parley/persistence/InstallationRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: Schema.Void,
      Result: Installation,
      execute: () => sql`SELECT * FROM parley_installation ORDER BY created_at LIMIT 1`
    })

    /** Count a node start, making the installation on the first one; nodes may start at once. */
    const recordStart = SqlSchema.single({
      Request: Schema.String,
      Result: Installation,
      execute: (version) =>
        Effect.flatMap(DateTime.now, (now) =>
          sql`
            INSERT INTO parley_installation ${
            sql.insert({
              id: uuidv7(),
              createdAt: DateTime.toDate(now),
              starts: 1,
              lastStartedAt: DateTime.toDate(now),
              lastVersion: version
            })
          }
            ON CONFLICT (singleton) DO UPDATE SET
              starts = parley_installation.starts + 1,
              last_started_at = EXCLUDED.last_started_at,
              last_version = EXCLUDED.last_version
            RETURNING id, created_at, starts, last_started_at, last_version`)
    })

    return {
      find: () => find().pipe(Effect.orDie, Effect.withSpan("InstallationRepo.find")),
      recordStart: (version: string) =>
        recordStart(version).pipe(Effect.orDie, Effect.withSpan("InstallationRepo.recordStart"))
    } as const
  })
}) {}
