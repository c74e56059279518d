import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { DateTimeField } from "../ModelFields.js"
import { IpAddress, UserAgent } from "./ClientInfo.js"
import { SessionId, UserId } from "./Ids.js"
import { MfaCode } from "./Mfa.js"
import { PasswordAttempt } from "./Password.js"

/** The httpOnly cookie that carries the refresh token; it is never readable by scripts nor sent in a body. */
export const REFRESH_COOKIE = "__Secure-parley_refresh"

/** The path the refresh cookie is scoped to, so browsers send it only to the auth routes. */
export const REFRESH_COOKIE_PATH = "/v1/auth"

/**
 * One signed-in session of a user: a refresh-token family. Every refresh
 * rotates the token; presenting the previous one again (a stolen copy)
 * revokes the session. Access tokens carry the session id, so deleting the
 * session stops them at once.
 */
export class Session extends Model.Class<Session>("Session")({
  id: Model.Generated(SessionId),
  userId: Model.FieldExcept("jsonCreate", "jsonUpdate")(UserId),
  refreshTokenHash: Model.Sensitive(Schema.String),
  /** The hash of the refresh token this one replaced, kept to detect reuse. */
  previousRefreshTokenHash: Model.Sensitive(Schema.NullOr(Schema.String)),
  userAgent: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(UserAgent)),
  ipAddress: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(IpAddress)),
  createdAt: Model.DateTimeInsertFromDate,
  /** When the session last proved every factor of its user: its sign-in, or a re-authentication. */
  authenticatedAt: DateTimeField,
  /** When the session last refreshed its access token. */
  lastUsedAt: Model.DateTimeUpdateFromDate,
  /** When the refresh token stops working however often it is used (absolute lifetime). */
  expiresAt: DateTimeField
}) {}

/** A session as its user sees it in their list of signed-in devices. */
export const SessionInfo = Schema.Struct({
  ...Session.json.fields,
  /** Whether this is the session making the request. */
  current: Schema.Boolean
}).annotations({ identifier: "SessionInfo" })

/** The query of `revoke-sessions` (optional, so the typed client may leave it out; absent means false). */
export const RevokeSessionsParams = Schema.Struct({
  keepCurrent: Schema.optional(
    Schema.BooleanFromString.annotations({
      description: "Sign out every other session but keep this one (default false: sign out everywhere)"
    })
  )
})

/** The outcome of signing out sessions. */
export const SessionsRevoked = Schema.Struct({
  /** How many sessions were signed out. */
  revoked: Schema.Number.pipe(Schema.int(), Schema.nonNegative())
}).annotations({ identifier: "SessionsRevoked" })

/** The user has no session with this id (sessions of other users are not found either). */
export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()(
  "SessionNotFound",
  { sessionId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/**
 * Prove every factor again: the password, and a code (TOTP or recovery) when
 * the account has MFA. Ending other sessions needs this within 10 minutes.
 */
export const ReauthenticateRequest = Schema.Struct({
  password: PasswordAttempt,
  code: Schema.optional(MfaCode)
}).annotations({ identifier: "ReauthenticateRequest", parseOptions: { onExcessProperty: "error" } })

/** The session proved every factor now; it counts as recent until `recentUntil`. */
export const Reauthenticated = Schema.Struct({
  authenticatedAt: Schema.DateTimeUtc,
  recentUntil: Schema.DateTimeUtc
}).annotations({ identifier: "Reauthenticated" })

/**
 * Ending other sessions needs a session that proved every factor recently:
 * sign in again or call `POST /v1/auth/reauthenticate`, then retry. So a stolen
 * session cannot sign its rightful owner out.
 */
export class ReauthenticationRequired extends Schema.TaggedError<ReauthenticationRequired>()(
  "ReauthenticationRequired",
  { maxAgeSeconds: Schema.Number, message: Schema.String },
  HttpApiSchema.annotations({ status: 403 })
) {}
