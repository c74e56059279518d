import { Schema } from "effect"
import { MfaCode } from "./Mfa.js"
import { Password, PasswordAttempt } from "./Password.js"

/**
 * Change the password of the signed-in account: the current password, the new
 * one, and a code (TOTP or recovery) when the account has MFA, so a stolen
 * session alone cannot take the account over.
 */
export const ChangePasswordRequest = Schema.Struct({
  currentPassword: PasswordAttempt,
  newPassword: Password,
  code: Schema.optional(MfaCode),
  // Optional rather than defaulted here, so the typed client may leave it out too; the default is applied by the handler.
  signOutOtherSessions: Schema.optional(
    Schema.Boolean.annotations({ description: "End every other session of the account (default true)" })
  )
}).annotations({ identifier: "ChangePasswordRequest", parseOptions: { onExcessProperty: "error" } })

/** The password is changed; `sessionsEnded` other sessions were signed out. */
export const PasswordChanged = Schema.Struct({
  sessionsEnded: Schema.Number.pipe(Schema.int(), Schema.nonNegative())
}).annotations({ identifier: "PasswordChanged" })
