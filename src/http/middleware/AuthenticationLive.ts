/**
 * Authentication and authorization of every authenticated route, in one place:
 *
 * 1. The credential: a bearer access token (JWT, its session live), a bearer
 *    API token (`pat_…`, live), or the access-token cookie. A cookie-borne
 *    write must carry `X-Requested-With` (CSRF: a cross-site form cannot set it,
 *    and no CORS policy lets a foreign page send it).
 * 2. The workspace: `X-Workspace-Id`, or the user's first membership; one the
 *    caller is not in is a 404, so its existence is not revealed.
 * 3. The access the route declares (`requires(...)` in the contract): a
 *    capability the caller's role holds (with a verified email where the table
 *    says so), or for account routes a signed-in user.
 *
 * Nothing here reads the database on the hot path: sessions, grants and tokens
 * come from `IdentityDirectory`'s cache, kept true by change announcements.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { RequireMfa } from "../../config/Settings.js"
import { capabilities, holds } from "../../domain/Capability.js"
import { Forbidden, Unauthenticated } from "../../domain/HttpErrors.js"
import { API_TOKEN_PREFIX } from "../../domain/identity/ApiToken.js"
import type { SessionId, UserId } from "../../domain/identity/Ids.js"
import { MfaEnrollmentRequired } from "../../domain/identity/Mfa.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { EmailNotVerified } from "../../domain/identity/User.js"
import { WorkspaceNotFound } from "../../domain/identity/WorkspaceNotFound.js"
import { annotateRequest } from "../../observability/RequestLog.js"
import { AccessTokens } from "../../services/identity/AccessTokens.js"
import { ApiTokens } from "../../services/identity/ApiTokens.js"
import { IdentityDirectory, type TokenGrant } from "../../services/identity/IdentityDirectory.js"
import { WORKSPACE_HEADER } from "../RequiredAccess.js"
import { routeAccess } from "../RouteAccess.js"
import { Authentication } from "./Authentication.js"

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

const unauthenticated = (message: string) => new Unauthenticated({ message })

/** Who a credential names, before workspace and access. */
type Identified =
  | { readonly _tag: "User"; readonly userId: UserId; readonly sessionId: SessionId }
  | { readonly _tag: "ApiToken"; readonly grant: TokenGrant }

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const accessTokens = yield* AccessTokens
    const apiTokens = yield* ApiTokens
    const directory = yield* IdentityDirectory
    const requireMfa = yield* RequireMfa

    /** Who a credential names, before any workspace or access rule. */
    const identify = (token: string): Effect.Effect<Identified, Unauthenticated> =>
      Effect.gen(function*() {
        if (token.startsWith(API_TOKEN_PREFIX)) {
          const grant = yield* apiTokens.authenticate(token)
          if (Option.isNone(grant)) {
            return yield* unauthenticated("This API token is not valid (revoked, expired or unknown)")
          }
          return { _tag: "ApiToken", grant: grant.value } as const
        }
        const claims = yield* accessTokens.verify(token).pipe(
          Effect.mapError((refused) =>
            unauthenticated(
              refused.reason === "expired"
                ? "The access token has expired: refresh it"
                : "The access token is not valid"
            )
          )
        )
        const session = yield* directory.liveSession(claims.sid)
        if (Option.isNone(session) || session.value.userId !== claims.sub) {
          return yield* unauthenticated("This session has ended: sign in again")
        }
        return { _tag: "User", userId: claims.sub, sessionId: claims.sid } as const
      })

    /** The principal of an identified caller in the workspace the request selects. */
    const principalOf = (identified: Identified, requestedWorkspace: string | undefined) =>
      Effect.gen(function*() {
        if (identified._tag === "ApiToken") {
          const { grant } = identified
          if (requestedWorkspace !== undefined && requestedWorkspace !== grant.workspaceId) {
            return yield* new WorkspaceNotFound({ workspaceId: requestedWorkspace, message: "No such workspace" })
          }
          return {
            _tag: "ApiToken",
            tokenId: grant.tokenId,
            displayName: grant.name,
            workspaceId: grant.workspaceId,
            role: grant.role
          } satisfies Principal
        }
        const grants = yield* directory.grantsOf(identified.userId)
        if (Option.isNone(grants)) return yield* unauthenticated("This account no longer exists")
        const membership = requestedWorkspace === undefined
          ? grants.value.memberships[0]
          : grants.value.memberships.find((m) => m.workspaceId === requestedWorkspace)
        if (membership === undefined) {
          return yield* new WorkspaceNotFound({
            workspaceId: requestedWorkspace ?? "",
            message: requestedWorkspace === undefined ? "You are not a member of any workspace" : "No such workspace"
          })
        }
        return {
          _tag: "User",
          userId: identified.userId,
          sessionId: identified.sessionId,
          displayName: grants.value.displayName,
          emailVerified: grants.value.emailVerified,
          mfaEnabled: grants.value.mfaEnabled,
          workspaceId: membership.workspaceId,
          role: membership.role
        } satisfies Principal
      })

    /** Whether the principal may call this route. */
    const authorize = (principal: Principal, route: string) =>
      Effect.gen(function*() {
        const access = routeAccess.get(route)
        if (access === undefined) {
          // Fail closed: an authenticated route without a declared access is a mistake, not an open door.
          return yield* new Forbidden({ message: `The route ${route} declares no access; refusing` })
        }
        if (access === "account") {
          if (principal._tag !== "User") {
            return yield* new Forbidden({ message: "This route acts on a user's own account: sign in as the user" })
          }
          return
        }
        if (requireMfa && principal._tag === "User" && !principal.mfaEnabled) {
          return yield* new MfaEnrollmentRequired({
            message: "This Parley requires two-factor authentication: turn it on at POST /v1/auth/mfa/enroll " +
              "and POST /v1/auth/mfa/verify, then try again"
          })
        }
        const rule = capabilities[access]
        if (!holds(principal.role, access)) {
          return yield* new Forbidden({
            capability: access,
            message: `This needs the ${access} capability (role ${rule.role} or above); your role is ${principal.role}`
          })
        }
        if (rule.verifiedEmail && principal._tag === "User" && !principal.emailVerified) {
          return yield* new EmailNotVerified({
            message: "Verify your email address first (POST /v1/auth/resend-verification mails a new link)"
          })
        }
      })

    const authenticate = (scheme: "bearer" | "cookie", credential: Redacted.Redacted<string>) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const context = yield* HttpRouter.RouteContext
        const authorization = request.headers["authorization"]
        let token = Redacted.value(credential)
        let via = scheme
        if (token === "") {
          // The first scheme found nothing: the second, if it finds nothing either, reports
          // the first scheme's own error (a bad bearer token stays the reason), or that nothing came.
          if (scheme === "cookie" && authorization?.toLowerCase().startsWith("bearer ")) {
            token = authorization.slice("bearer ".length).trim()
            via = "bearer"
          }
          if (token === "") {
            return yield* unauthenticated(
              "Sign in: send Authorization: Bearer <access token or API token>, or the session cookie"
            )
          }
        }
        if (via === "cookie" && UNSAFE_METHODS.has(request.method) && !request.headers["x-requested-with"]) {
          return yield* new Forbidden({
            message: "A write authenticated by cookie needs the X-Requested-With header (cross-site request defence)"
          })
        }
        const identified = yield* identify(token)
        const principal = yield* principalOf(identified, request.headers[WORKSPACE_HEADER])
        yield* authorize(principal, `${context.route.method} ${context.route.path}`)
        yield* annotateRequest({ workspaceId: principal.workspaceId })
        return principal
      }).pipe(Effect.withSpan("Authentication.authenticate", { attributes: { scheme } }))

    return Authentication.of({
      bearer: (credential) => authenticate("bearer", credential),
      cookie: (credential) => authenticate("cookie", credential)
    })
  })
)
