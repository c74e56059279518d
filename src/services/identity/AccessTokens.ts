/**
 * Access tokens: JWTs of 15 minutes, signed with EdDSA, that carry the user
 * and the session. Verification pins the algorithm, the issuer, the audience
 * and the type (`at+jwt`), takes the key only from Parley's own key set by
 * `kid` (never from the token's header), and requires `exp`, `iat`, `sub` and
 * `sid`. A valid signature is not enough: the caller checks the session is live.
 */
import { Data, Effect, Either, Option, Schema } from "effect"
import { errors, jwtVerify, SignJWT } from "jose"
import { v4 as uuidv4 } from "uuid"
import { TokenIssuer } from "../../config/Settings.js"
import { ACCESS_TOKEN_AUDIENCE, AccessTokenClaims } from "../../domain/identity/AccessTokenClaims.js"
import type { SessionId, UserId } from "../../domain/identity/Ids.js"
import { ACCESS_TOKEN_TTL_SECONDS } from "../../domain/identity/Login.js"
import { SIGNING_ALGORITHM, SigningKeys } from "./SigningKeys.js"
import { makeVerifiedTokens } from "./VerifiedTokens.js"

/** The JWT `typ` of Parley's access tokens (RFC 9068), so no other JWT passes for one. */
export const ACCESS_TOKEN_TYPE = "at+jwt"

/** Why an access token was refused. */
export class AccessTokenRefused extends Data.TaggedError("AccessTokenRefused")<{
  readonly reason: "expired" | "invalid"
}> {}

const decodeClaims = Schema.decodeUnknownEither(AccessTokenClaims)

/** Seconds of clock skew accepted on `exp` (and `iat`). */
const CLOCK_TOLERANCE_SECONDS = 30
/** Verified tokens remembered per node: a few per live session is plenty. */
const VERIFIED_TOKENS_CAPACITY = 20_000

/** Issues and verifies access tokens. */
export class AccessTokens extends Effect.Service<AccessTokens>()("parley/services/identity/AccessTokens", {
  effect: Effect.gen(function*() {
    const keys = yield* SigningKeys
    const issuer = yield* TokenIssuer

    const issue = Effect.fn("AccessTokens.issue")(function*(subject: { userId: UserId; sessionId: SessionId }) {
      const key = keys.current
      const token = yield* Effect.promise(() =>
        new SignJWT({ sid: subject.sessionId })
          .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: ACCESS_TOKEN_TYPE })
          .setIssuer(issuer)
          .setAudience(ACCESS_TOKEN_AUDIENCE)
          .setSubject(subject.userId)
          .setIssuedAt()
          .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
          .setJti(uuidv4())
          .sign(key.privateKey)
      )
      return { token, expiresIn: ACCESS_TOKEN_TTL_SECONDS } as const
    })

    const verifiedTokens = makeVerifiedTokens(VERIFIED_TOKENS_CAPACITY, CLOCK_TOLERANCE_SECONDS)
    const keyKnown = (kid: string) => Option.isSome(keys.byKid(kid))

    const verifySignature = Effect.fnUntraced(function*(token: string) {
      let kid: string | undefined
      const verified = yield* Effect.tryPromise({
        try: () =>
          jwtVerify(
            token,
            (header) => {
              const key = header.kid === undefined ? Option.none() : keys.byKid(header.kid)
              if (Option.isNone(key)) throw new errors.JWKSNoMatchingKey()
              kid = header.kid
              return key.value.verifyKey
            },
            {
              algorithms: [SIGNING_ALGORITHM],
              issuer,
              audience: ACCESS_TOKEN_AUDIENCE,
              typ: ACCESS_TOKEN_TYPE,
              requiredClaims: ["exp", "iat", "sub", "sid", "jti"],
              clockTolerance: CLOCK_TOLERANCE_SECONDS
            }
          ),
        catch: (error) => new AccessTokenRefused({ reason: error instanceof errors.JWTExpired ? "expired" : "invalid" })
      })
      const claims = yield* Either.match(decodeClaims(verified.payload), {
        onLeft: () => Effect.fail(new AccessTokenRefused({ reason: "invalid" })),
        onRight: Effect.succeed
      })
      verifiedTokens.remember(token, { claims, kid: kid! })
      return claims
    })

    /** The token's claims: from this node's verified tokens when it was seen before, else verified now. */
    const verify = (token: string) =>
      Effect.suspend(() => {
        const known = verifiedTokens.get(token, Date.now() / 1000, keyKnown)
        return known === undefined ? verifySignature(token) : Effect.succeed(known)
      })

    return { issue, verify } as const
  })
}) {}
