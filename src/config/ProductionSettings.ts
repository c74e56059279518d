import { Data, Effect, Option } from "effect"
import { DatabaseUrl, Environment, MasterKey, MetricsToken } from "./Settings.js"

/** In production, settings that have no safe default were left unset. */
export class MissingProductionSettings extends Data.TaggedError("MissingProductionSettings")<{
  readonly names: ReadonlyArray<string>
}> {
  override get message() {
    return `PARLEY_ENV=production requires these settings, which are not set: ${this.names.join(", ")}`
  }
}

/** Fail at start-up, naming every missing one, when production lacks a required secret. */
export const checkProductionSettings = Effect.gen(function*() {
  if ((yield* Environment) !== "production") return
  const required = [
    ["DATABASE_URL", yield* DatabaseUrl],
    ["METRICS_TOKEN", yield* MetricsToken],
    ["PARLEY_MASTER_KEY", yield* MasterKey]
  ] as const
  const names = required.filter(([, value]) => Option.isNone(value)).map(([name]) => name)
  if (names.length > 0) return yield* new MissingProductionSettings({ names })
})
