/**
 * `parley secrets rotate-master-key`: run with the new key as
 * `PARLEY_MASTER_KEY` and the old one(s) in `PARLEY_MASTER_KEY_PREVIOUS`,
 * while the nodes (already reading both, writing the new) keep serving. It
 * moves every secret at rest to the new key and prints what it did; a second
 * run does nothing (see docs/SECRETS.md for the whole procedure).
 */
import { Command } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { LoggingLive } from "../observability/Logging.js"
import { MigratorLive, SqlLive } from "../persistence/Sql.js"
import { MasterKey } from "../services/MasterKey.js"
import { MasterKeyRotation } from "../services/MasterKeyRotation.js"
import { SecretBox } from "../services/SecretBox.js"
import { reportStartupFailure } from "./Startup.js"

/** The rotation and what it needs but the database. */
export const MasterKeyRotationServices = MasterKeyRotation.Default.pipe(
  Layer.provide(SecretBox.Default),
  Layer.provideMerge(MasterKey.Default)
)

const rotateMasterKey = Command.make(
  "rotate-master-key",
  {},
  () =>
    Effect.flatMap(MasterKeyRotation, (rotation) => rotation.rotate()).pipe(
      Effect.flatMap((report) => Console.log(JSON.stringify(report, null, 2))),
      Effect.provide(MasterKeyRotationServices.pipe(Layer.provide(MigratorLive), Layer.provideMerge(SqlLive))),
      reportStartupFailure,
      Effect.provide(LoggingLive)
    )
).pipe(
  Command.withDescription(
    "Re-wrap every vault data key and re-seal every secret at rest (TOTP seeds, signing keys) under " +
      "PARLEY_MASTER_KEY, reading the old ones with PARLEY_MASTER_KEY_PREVIOUS; safe while nodes serve, " +
      "idempotent, and refused before any write if a row opens under no configured key"
  )
)

/** `parley secrets …` */
export const secrets = Command.make("secrets").pipe(
  Command.withDescription("Operator commands on secrets at rest"),
  Command.withSubcommands([rotateMasterKey])
)
