import { Data, Effect, Option } from "effect"
import {
  DatabaseUrl,
  Environment,
  GivenPublicUrl,
  JwtPrivateKey,
  MasterKey,
  MetricsToken,
  SmtpUrl
} from "./Settings.js"

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
  const required: ReadonlyArray<readonly [string, Option.Option<unknown>]> = [
    ["DATABASE_URL", yield* DatabaseUrl],
    ["METRICS_TOKEN", yield* MetricsToken],
    ["PARLEY_MASTER_KEY", yield* MasterKey],
    ["PARLEY_JWT_PRIVATE_KEY", yield* JwtPrivateKey],
    ["PARLEY_SMTP_URL", yield* SmtpUrl],
    // Its default names localhost, which no user outside this machine can reach.
    ["PARLEY_PUBLIC_URL", yield* GivenPublicUrl]
  ]
  const names = required.filter(([, value]) => Option.isNone(value)).map(([name]) => name)
  if (names.length > 0) return yield* new MissingProductionSettings({ names })
})
