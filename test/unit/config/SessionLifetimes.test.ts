/**
 * Session lifetimes are settings with safe bounds: an idle time-out of at
 * least 15 minutes (an access token's life) and at most the absolute lifetime.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import { SessionLifetimes } from "../../../src/config/Settings.js"

const read = (settings: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(SessionLifetimes, ConfigProvider.fromJson(settings))))

describe("session lifetimes", () => {
  it("default to 30 days and 7 days idle", () => {
    const lifetimes = Either.getOrThrow(read({}))
    expect(Duration.toMillis(lifetimes.maxAge)).toBe(30 * 86_400_000)
    expect(Duration.toMillis(lifetimes.idleTimeout)).toBe(7 * 86_400_000)
  })

  it("take AAL2-style values", () => {
    const lifetimes = Either.getOrThrow(
      read({ PARLEY_SESSION_MAX_AGE: "12 hours", PARLEY_SESSION_IDLE_TIMEOUT: "30 minutes" })
    )
    expect(Duration.toMillis(lifetimes.maxAge)).toBe(12 * 3_600_000)
    expect(Duration.toMillis(lifetimes.idleTimeout)).toBe(30 * 60_000)
  })

  it("refuse an idle time-out under 15 minutes or over the lifetime, naming the rule", () => {
    for (
      const settings of [
        { PARLEY_SESSION_IDLE_TIMEOUT: "5 minutes" },
        { PARLEY_SESSION_MAX_AGE: "1 hour", PARLEY_SESSION_IDLE_TIMEOUT: "2 hours" }
      ]
    ) {
      const refused = read(settings)
      expect(Either.isLeft(refused)).toBe(true)
      expect(String(Either.flip(refused).pipe(Either.getOrThrow))).toContain(
        "PARLEY_SESSION_IDLE_TIMEOUT must be at least 15 minutes and at most PARLEY_SESSION_MAX_AGE"
      )
    }
  })
})
