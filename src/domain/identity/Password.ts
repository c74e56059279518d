import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The shortest password Parley accepts (OWASP ASVS 5: at least 12 characters). */
export const PASSWORD_MIN_LENGTH = 12

/** The longest password Parley accepts; longer ones are refused, never truncated. */
export const PASSWORD_MAX_LENGTH = 256

// Custom messages: the default ones quote the value, and a password must never be echoed back.
const tooShort = () => `a password has at least ${PASSWORD_MIN_LENGTH} characters`
const tooLong = () => `a password has at most ${PASSWORD_MAX_LENGTH} characters`

/**
 * A new password: 12 to 256 characters, any characters (spaces and Unicode
 * included), no composition rules, kept `Redacted` so it never reaches a log.
 */
export const Password = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(PASSWORD_MIN_LENGTH, { message: tooShort }),
    Schema.maxLength(PASSWORD_MAX_LENGTH, { message: tooLong })
  )
).annotations({
  identifier: "Password",
  description: `A new password, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
  jsonSchema: {
    type: "string",
    format: "password",
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: `A new password, ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    examples: ["correct-horse-battery-staple"]
  }
})

/**
 * A password presented to prove who the caller is (login, re-authentication).
 * Only bounded, not held to the current policy, so tightening the policy
 * never locks out an existing account.
 */
export const PasswordAttempt = Schema.Redacted(
  Schema.String.pipe(
    Schema.minLength(1, { message: () => "a password is required" }),
    Schema.maxLength(PASSWORD_MAX_LENGTH, { message: tooLong })
  )
).annotations({
  identifier: "PasswordAttempt",
  description: "The account's current password",
  jsonSchema: {
    type: "string",
    format: "password",
    minLength: 1,
    maxLength: PASSWORD_MAX_LENGTH,
    description: "The account's current password",
    examples: ["correct-horse-battery-staple"]
  }
})

/** Why a new password was refused beyond its length. */
export const WeakPasswordReason = Schema.Literal("common", "contains-email", "context-word")
export type WeakPasswordReason = typeof WeakPasswordReason.Type

/**
 * The new password is long enough but easy to guess: it is on the list of
 * common or breached passwords, it contains the account's email address, or
 * it is made of words of this context (Parley, its roles, the user's names).
 */
export class WeakPassword extends Schema.TaggedError<WeakPassword>()(
  "WeakPassword",
  { reason: WeakPasswordReason, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
