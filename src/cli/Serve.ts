import { Command } from "@effect/cli"
import { Effect, Layer } from "effect"
import { checkProductionSettings } from "../config/ProductionSettings.js"
import { onFairScheduler } from "../FairScheduler.js"
import { MainLive } from "../MainLive.js"
import { LoggingLive } from "../observability/Logging.js"
import { reportStartupFailure } from "./Startup.js"

/**
 * `parley serve`: one Parley node. It migrates the database, records the start,
 * and serves HTTP until it is stopped (SIGINT or SIGTERM), then closes cleanly.
 */
export const serve = Command.make("serve", {}, () =>
  checkProductionSettings.pipe(
    Effect.zipRight(onFairScheduler(Layer.launch(MainLive))),
    reportStartupFailure,
    Effect.provide(LoggingLive)
  )).pipe(Command.withDescription("Run a Parley node: the HTTP API over the database (embedded unless DATABASE_URL)"))
