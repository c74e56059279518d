import { Schema } from "effect"
import { Email } from "./Email.js"
import { OpaqueToken } from "./OneTimeToken.js"
import { Password } from "./Password.js"

/** How long a password-reset link works, in seconds (30 minutes). */
export const PASSWORD_RESET_TTL_SECONDS = 1800

/** Ask for a password-reset mail. The answer is the same whether or not the account exists. */
export const ForgotPasswordRequest = Schema.Struct({
  email: Email
}).annotations({ identifier: "ForgotPasswordRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * Set a new password with the token from the reset mail. It signs out every
 * session of the account and marks its email verified (the mail reached it).
 */
export const ResetPasswordRequest = Schema.Struct({
  token: OpaqueToken,
  password: Password
}).annotations({ identifier: "ResetPasswordRequest", parseOptions: { onExcessProperty: "error" } })
