import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Email } from "./Email.js"
import { PasswordAttempt } from "./Password.js"
import { User } from "./User.js"

/** How long an access token lives, in seconds (15 minutes). */
export const ACCESS_TOKEN_TTL_SECONDS = 900

/** How long a login may wait for its MFA code, in seconds (5 minutes). */
export const MFA_CHALLENGE_TTL_SECONDS = 300

const Seconds = Schema.Number.pipe(Schema.int(), Schema.positive())

/** Email and password, the first step of a login. */
export const LoginRequest = Schema.Struct({
  email: Email,
  password: PasswordAttempt
}).annotations({ identifier: "LoginRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * A finished sign-in: a short-lived JWT access token for `Authorization:
 * Bearer`, and the user. The same token is set in the `__Host-parley_access` cookie
 * and the refresh token only in the `__Secure-parley_refresh` cookie (both httpOnly).
 */
export const SignedIn = Schema.TaggedStruct("SignedIn", {
  mfaRequired: Schema.Literal(false),
  /** A JWT signed with a key from `/.well-known/jwks.json`; it carries the session id. */
  accessToken: Schema.Redacted(Schema.String),
  tokenType: Schema.Literal("Bearer"),
  /** Seconds until the access token expires. */
  expiresIn: Seconds,
  user: User.json
}).annotations({ identifier: "SignedIn" })
export type SignedIn = typeof SignedIn.Type

/**
 * The password was right and the account has MFA: finish at
 * `POST /v1/auth/mfa/challenge` with this token and a code. No cookie is set yet.
 */
export const MfaRequired = Schema.TaggedStruct("MfaRequired", {
  mfaRequired: Schema.Literal(true),
  /** Single-use; valid for `expiresIn` seconds. */
  challengeToken: Schema.Redacted(Schema.String),
  expiresIn: Seconds
}).annotations({ identifier: "MfaRequired" })
export type MfaRequired = typeof MfaRequired.Type

/** The answer to a login: switch on `_tag` (or, equally, `mfaRequired`). */
export const LoginResult = Schema.Union(SignedIn, MfaRequired).annotations({
  identifier: "LoginResult",
  description: "SignedIn, or MfaRequired when the account has MFA"
})
export type LoginResult = typeof LoginResult.Type

/**
 * The email or the password is wrong. One error for both, so a login never
 * tells whether an account exists.
 */
export class InvalidCredentials extends Schema.TaggedError<InvalidCredentials>()(
  "InvalidCredentials",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}
