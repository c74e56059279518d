/**
 * The brute-force limits of identity routes, counted in PostgreSQL so every
 * node shares them. Per-account limits count *failures* on an (account,
 * address) pair, so a stranger cannot lock the rightful user out from
 * elsewhere; a generous per-account cap still stops an attack spread over many
 * addresses; per-address limits count every attempt. All windows slide and
 * expire: nobody is locked out for good.
 */
import { Effect } from "effect"
import type { RateLimiter, RateRule } from "../RateLimiter.js"

/**
 * Refuse (429) when a failure-counting rule is already over its limit, without
 * counting this attempt as a failure: failures are counted when they happen.
 */
export const refuseWhenOver = (limiter: RateLimiter, rule: RateRule, key: string) =>
  Effect.whenEffect(limiter.consume(rule, key), limiter.peek(rule, key)).pipe(Effect.asVoid)

/** Wrong passwords for one account from one address. */
export const loginFailuresPerAccountAndAddress: RateRule = {
  name: "login.account-address",
  limit: 10,
  window: "15 minutes"
}
/** Wrong passwords for one account from anywhere. */
export const loginFailuresPerAccount: RateRule = { name: "login.account", limit: 100, window: "1 hour" }
/** Login attempts from one address, right or wrong. */
export const loginAttemptsPerAddress: RateRule = { name: "login.address", limit: 50, window: "15 minutes" }

/** Wrong MFA codes for one account. */
export const mfaFailuresPerAccount: RateRule = { name: "mfa.account", limit: 10, window: "15 minutes" }
/** Wrong codes for one MFA login challenge; past it the challenge is refused and the user signs in again. */
export const mfaChallengeFailures: RateRule = { name: "mfa.challenge", limit: 5, window: "5 minutes" }
/** MFA code attempts from one address. */
export const mfaAttemptsPerAddress: RateRule = { name: "mfa.address", limit: 30, window: "15 minutes" }

/** Password-reset mails asked for one address. */
export const forgotPasswordPerEmail: RateRule = { name: "forgot.email", limit: 5, window: "1 hour" }
/** Password-reset requests from one client address. */
export const forgotPasswordPerAddress: RateRule = { name: "forgot.address", limit: 30, window: "1 hour" }

/** Verification mails asked for one address. */
export const resendVerificationPerEmail: RateRule = { name: "resend.email", limit: 5, window: "1 hour" }
/** Verification-mail requests from one client address. */
export const resendVerificationPerAddress: RateRule = { name: "resend.address", limit: 30, window: "1 hour" }

/** Sign-ups from one client address. */
export const signupsPerAddress: RateRule = { name: "signup.address", limit: 20, window: "1 hour" }

/** Password checks of a signed-in user (MFA enrolment re-authenticates with the password). */
export const passwordChecksPerUser: RateRule = { name: "reauth.user", limit: 10, window: "15 minutes" }
