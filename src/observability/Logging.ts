import { Effect, Layer, Logger } from "effect"
import { LogLevelSetting } from "../config/Settings.js"

/** Structured logs: one JSON object per line, at the configured level. */
export const LoggingLive = Layer.mergeAll(
  Logger.json,
  Layer.unwrapEffect(Effect.map(LogLevelSetting, Logger.minimumLogLevel))
)
