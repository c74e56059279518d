import { Command } from "@effect/cli"
import { Effect, Layer } from "effect"
import { LoggingLive } from "../observability/Logging.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { reportStartupFailure } from "./Startup.js"

/** `parley migrate`: bring the database to the current schema, then exit. */
export const migrate = Command.make("migrate", {}, () =>
  Effect.logInfo("Migrations applied").pipe(
    Effect.provide(MigratorLive.pipe(Layer.provide(SqlLive))),
    reportStartupFailure,
    Effect.provide(LoggingLive)
  )).pipe(Command.withDescription("Run pending database migrations and exit"))
