import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * What a token presented to an auth route was for: a refresh token, the
 * link of a password-reset, email-verification or invitation mail, or the
 * challenge token of a login waiting for its MFA code.
 */
export const TokenPurpose = Schema.Literal(
  "refresh",
  "password-reset",
  "email-verification",
  "invitation",
  "mfa-challenge"
)
export type TokenPurpose = typeof TokenPurpose.Type

/**
 * An opaque, single-use secret the server issued (256 random bits,
 * base64url): only its hash is stored, and it is kept `Redacted` in memory.
 */
export const OpaqueToken = Schema.Redacted(
  Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9_-]{20,512}$/, { message: () => "not a token this server issues" })
  )
).annotations({
  identifier: "OpaqueToken",
  description: "A token from a mail link or an earlier response, exactly as received",
  jsonSchema: {
    type: "string",
    pattern: "^[A-Za-z0-9_-]{20,512}$",
    description: "A token from a mail link or an earlier response, exactly as received",
    examples: ["Jq3vX9sT2mK8pL4wZ6yB1cD5fG7hR0aE"]
  }
})

/**
 * The token is unknown, malformed, already used or revoked. A reused refresh
 * token also revokes its whole session. 400 as OAuth's `invalid_grant`, so a
 * client never mistakes it for its own session expiring.
 */
export class InvalidToken extends Schema.TaggedError<InvalidToken>()(
  "InvalidToken",
  { purpose: TokenPurpose, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The token is genuine but past its expiry; ask for a new one (sign in again, or request another mail). */
export class TokenExpired extends Schema.TaggedError<TokenExpired>()(
  "TokenExpired",
  { purpose: TokenPurpose, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
