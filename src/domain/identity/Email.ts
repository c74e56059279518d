import { Schema } from "effect"

/** The longest address SMTP can carry (RFC 5321 path limit minus the angle brackets). */
export const EMAIL_MAX_LENGTH = 254

// The WHATWG "valid email address" grammar, with a dot required in the domain
// (an account address must be deliverable on the internet) and a 64-octet local part.
const emailPattern =
  /^(?=[^@]{1,64}@)[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

/** A normalised email address: the canonical form in which addresses are stored and compared. */
export const NormalisedEmail = Schema.String.pipe(
  Schema.maxLength(EMAIL_MAX_LENGTH, { message: () => `an email address is at most ${EMAIL_MAX_LENGTH} characters` }),
  Schema.pattern(emailPattern, { message: () => "not a valid email address" })
)

/**
 * An email address as a client sends it: trimmed and lowercased on decode, so
 * `" Ada@Example.COM "` and `"ada@example.com"` are one account.
 */
export const Email = Schema.transform(Schema.String, NormalisedEmail, {
  strict: false,
  decode: (input) => input.trim().toLowerCase(),
  encode: (email) => email
}).annotations({
  identifier: "Email",
  description: "An email address; surrounding spaces are removed and letters are lowercased",
  jsonSchema: {
    type: "string",
    format: "email",
    maxLength: EMAIL_MAX_LENGTH,
    description: "An email address; surrounding spaces are removed and letters are lowercased",
    examples: ["ada@example.com"]
  },
  examples: ["ada@example.com" as never]
})
export type Email = typeof Email.Type
