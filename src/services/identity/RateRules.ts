/**
 * The brute-force limits of identity routes, counted in PostgreSQL so every
 * node shares them. Per-account limits count *failures* on an (account,
 * address) pair, so a stranger cannot lock the rightful user out from
 * elsewhere; a generous per-account cap still stops an attack spread over many
 * addresses. That cap locks out only clients without a device cookie: a
 * browser that signed in to the account before counts its failures on its own
 * cookie instead (OWASP's device cookies, see `DeviceCookies`). Per-address
 * limits count every attempt. All windows slide and expire: nobody is locked
 * out for good, and a failure lock opens at most one window after it shut.
 */
import type { RateLimiter, RateRule } from "../RateLimiter.js"

/**
 * Refuse (429) when a failure-counting rule is already over its limit, without
 * counting this attempt as a failure: failures are counted when they happen, so
 * an attacker hammering a shut lock does not keep it shut for longer.
 */
export const refuseWhenOver = (limiter: RateLimiter, rule: RateRule, key: string) => limiter.refuseWhenOver(rule, key)

/** Wrong passwords for one account from one address. */
export const loginFailuresPerAccountAndAddress: RateRule = {
  name: "login.account-address",
  limit: 10,
  window: "15 minutes"
}
/** Wrong passwords for one account from anywhere. */
export const loginFailuresPerAccount: RateRule = { name: "login.account", limit: 100, window: "1 hour" }
/** Wrong passwords from one device cookie (a browser that signed in to the account before); past it the cookie is locked out. */
export const loginFailuresPerDevice: RateRule = { name: "login.device", limit: 10, window: "15 minutes" }
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
