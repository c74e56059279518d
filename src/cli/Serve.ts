/**
 * `parley serve`: one Parley node. It migrates the database, records the start,
 * and serves HTTP until it is stopped (SIGINT or SIGTERM), then closes cleanly.
 */
import { Command } from "@effect/cli"
import { Effect, Layer } from "effect"
import { checkProductionSettings } from "../config/ProductionSettings.js"
import { HttpLive } from "../http/Http.js"
import { LoggingLive } from "../observability/Logging.js"
import { MetricsExposition } from "../observability/MetricsExposition.js"
import { InstallationRepo } from "../persistence/InstallationRepo.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { Readiness } from "../services/Readiness.js"
import { version } from "../Version.js"
import { reportStartupFailure } from "./Startup.js"

const RecordStart = Layer.effectDiscard(
  Effect.flatMap(InstallationRepo, (repo) => repo.recordStart(version)).pipe(
    Effect.tap((installation) =>
      Effect.logInfo("Parley started").pipe(
        Effect.annotateLogs({ version, installationId: installation.id, starts: installation.starts })
      )
    )
  )
).pipe(Layer.provide(InstallationRepo.Default))

/** Everything a node runs, over the database. */
export const MainLive = Layer.mergeAll(HttpLive, RecordStart).pipe(
  Layer.provide([Readiness.Default, MetricsExposition.Default]),
  Layer.provide(MigratorLive),
  Layer.provideMerge(SqlLive)
)

export const serve = Command.make("serve", {}, () =>
  checkProductionSettings.pipe(
    Effect.zipRight(Layer.launch(MainLive)),
    reportStartupFailure,
    Effect.provide(LoggingLive)
  )).pipe(Command.withDescription("Run a Parley node: the HTTP API over the database (embedded unless DATABASE_URL)"))
