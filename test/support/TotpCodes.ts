/**
 * TOTP codes for tests, computed the way an authenticator app does. A code
 * lives only until its 30-second step ends, so a test that reads "now" and
 * then presents a code first waits, when "now" is in the last seconds of a
 * step, for the next one: otherwise a slow moment would turn a right code
 * into an expired one.
 */
import { Effect, type Redacted } from "effect"
import { Totp, TOTP_PERIOD } from "../../src/services/Totp.js"

/** The TOTP code of a seed at a time, `offsetSteps` steps later. */
export const codeAt = (secret: string | Redacted.Redacted<string>, at: number, offsetSteps = 0) =>
  Effect.flatMap(Totp, (totp) => totp.generate({ secret, at: new Date(at + offsetSteps * TOTP_PERIOD * 1000) })).pipe(
    Effect.provide(Totp.Default)
  )

/** The current time, at least 5 seconds before its step ends (waiting for the next step if need be). */
export const settledNow = Effect.suspend(() => {
  const now = Date.now()
  const periodMs = TOTP_PERIOD * 1000
  const left = periodMs - (now % periodMs)
  return left >= 5_000 ? Effect.succeed(now) : Effect.as(Effect.sleep(left + 100), now + left + 100)
})
