import { Schema } from "effect"
import { Email } from "./Email.js"
import { OpaqueToken } from "./OneTimeToken.js"

/** How long an email-verification link works, in seconds (24 hours). */
export const EMAIL_VERIFICATION_TTL_SECONDS = 86_400

/** Confirm an email address with the token from the verification mail. */
export const VerifyEmailRequest = Schema.Struct({
  token: OpaqueToken
}).annotations({ identifier: "VerifyEmailRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * Ask for a new verification mail. The answer is the same whether the
 * account exists, is already verified or not, so it reveals nothing.
 */
export const ResendVerificationRequest = Schema.Struct({
  email: Email
}).annotations({ identifier: "ResendVerificationRequest", parseOptions: { onExcessProperty: "error" } })
