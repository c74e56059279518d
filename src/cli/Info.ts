import { Command } from "@effect/cli"
import { Console, DateTime, Effect, Layer, Option } from "effect"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"
import { InstallationRepo } from "../persistence/InstallationRepo.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { version } from "../Version.js"
import { reportStartupFailure } from "./Startup.js"

/** `parley info`: the version, the database and the installation, as JSON. */
export const info = Command.make("info", {}, () =>
  Effect.gen(function*() {
    const database = yield* DatabaseInfo
    const installation = yield* Effect.flatMap(InstallationRepo, (repo) => repo.find())
    yield* Console.log(JSON.stringify(
      {
        version,
        database: { kind: database.kind, location: database.location },
        installation: Option.match(installation, {
          onNone: () => null,
          onSome: (row) => ({
            id: row.id,
            createdAt: DateTime.formatIso(row.createdAt),
            starts: row.starts,
            lastStartedAt: DateTime.formatIso(row.lastStartedAt),
            lastVersion: row.lastVersion
          })
        })
      },
      null,
      2
    ))
  }).pipe(
    Effect.provide(InstallationRepo.Default.pipe(Layer.provide(MigratorLive), Layer.provideMerge(SqlLive))),
    reportStartupFailure
  )).pipe(Command.withDescription("Print the version, the database and the installation record as JSON"))
