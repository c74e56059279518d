/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps expect
 * them: SHA-1, 6 digits, 30-second steps, base32 seeds. otplib does the
 * arithmetic; this service fixes the parameters and the replay rule.
 */
import { Effect, Option, Redacted } from "effect"
import { generateSecret as otpGenerateSecret, generateSync, verifySync } from "otplib"

/** The time step in seconds. */
export const TOTP_PERIOD = 30

/** The number of digits of a code. */
export const TOTP_DIGITS = 6

/** Random bytes in a new seed (160 bits, RFC 4226's recommendation). */
const SECRET_BYTES = 20

const reveal = (value: string | Redacted.Redacted<string>) => Redacted.isRedacted(value) ? Redacted.value(value) : value

const epochSeconds = (at: Date) => Math.floor(at.getTime() / 1000)

/** The time step (RFC 6238's T) that `at` falls in. */
export const totpStep = (at: Date): number => Math.floor(epochSeconds(at) / TOTP_PERIOD)

const options = { algorithm: "sha1", digits: TOTP_DIGITS, period: TOTP_PERIOD } as const

/** A new seed: 20 random bytes, base32 without padding. */
const generateSecret = (): string => otpGenerateSecret({ length: SECRET_BYTES })

/** The `otpauth://` URI an authenticator app reads from a QR code; every parameter is explicit. */
const uri = (input: {
  readonly secret: string | Redacted.Redacted<string>
  readonly accountName: string
  readonly issuer: string
}): string => {
  const issuer = encodeURIComponent(input.issuer)
  return `otpauth://totp/${issuer}:${encodeURIComponent(input.accountName)}` +
    `?secret=${encodeURIComponent(reveal(input.secret))}&issuer=${issuer}` +
    `&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_PERIOD}`
}

/** The code for `at`: what the authenticator app shows then (for tests and tooling). */
const generate = Effect.fn("Totp.generate")(function*(input: {
  readonly secret: string | Redacted.Redacted<string>
  readonly at: Date
}) {
  return yield* Effect.sync(() =>
    generateSync({ ...options, secret: reveal(input.secret), epoch: epochSeconds(input.at) })
  )
})

/**
 * How far from `at` a code's step may lie, in seconds: [past, future]. None in
 * the past, so a code works at most until its own 30-second step ends (ASVS
 * 6.5.5: a TOTP lives 30 seconds at most, and a code seen by someone else is
 * dead when its step is); one step ahead, for an authenticator whose clock
 * runs a little fast.
 */
export const TOTP_TOLERANCE: [number, number] = [0, TOTP_PERIOD]

/**
 * The time step `code` belongs to, if it is the code of the step of `at` (or
 * of the next one: a clock running ahead) and that step is after
 * `lastUsedStep`. The caller stores the returned step as the new
 * `lastUsedStep`, so each code is accepted once. A code that is not 6 digits
 * is simply refused.
 */
const verify = Effect.fn("Totp.verify")(function*(input: {
  readonly secret: string | Redacted.Redacted<string>
  readonly code: string | Redacted.Redacted<string>
  readonly at: Date
  readonly lastUsedStep: number | null
}) {
  const code = reveal(input.code)
  if (!/^\d{6}$/.test(code)) return Option.none<number>()
  // Every step in the window is at most step + 1; otplib refuses an `afterTimeStep` past its window.
  const afterTimeStep = input.lastUsedStep !== null && input.lastUsedStep >= 0 ? input.lastUsedStep : undefined
  if (afterTimeStep !== undefined && afterTimeStep > totpStep(input.at) + 1) return Option.none<number>()
  const result = yield* Effect.sync(() =>
    verifySync({
      ...options,
      secret: reveal(input.secret),
      token: code,
      epoch: epochSeconds(input.at),
      epochTolerance: TOTP_TOLERANCE,
      ...(afterTimeStep === undefined ? {} : { afterTimeStep })
    })
  )
  // The functional API types results for HOTP too; a TOTP result always carries its step.
  return result.valid && "timeStep" in result ? Option.some(result.timeStep) : Option.none<number>()
})

/** TOTP for the second factor: seeds, provisioning URIs and single-use verification. */
export class Totp extends Effect.Service<Totp>()("parley/services/Totp", {
  succeed: { generateSecret, uri, generate, verify } as const
}) {}
