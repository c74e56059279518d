import { Schema } from "effect"
import { SessionId, UserId } from "./Ids.js"

/** The `aud` of every access token Parley issues. */
export const ACCESS_TOKEN_AUDIENCE = "parley"

const EpochSeconds = Schema.Number.pipe(Schema.int(), Schema.positive())

/**
 * The claims of an access token (a JWT signed with a key of
 * `/.well-known/jwks.json`, its header naming the key by `kid`). It carries
 * no role or workspace: those are looked up per request, so a role change
 * takes effect at once. `sid` lets logout stop the token before `exp`.
 */
export const AccessTokenClaims = Schema.Struct({
  /** The server's public base URL. */
  iss: Schema.String,
  sub: UserId,
  aud: Schema.Literal(ACCESS_TOKEN_AUDIENCE),
  sid: SessionId,
  iat: EpochSeconds,
  exp: EpochSeconds,
  /** A unique id per token (UUID). */
  jti: Schema.UUID
}).annotations({ identifier: "AccessTokenClaims" })
export type AccessTokenClaims = typeof AccessTokenClaims.Type
