/**
 * The declaration of user and automation authentication: a bearer access
 * token or API token, or the access-token cookie set at login. The
 * implementation also selects the workspace (`X-Workspace-Id`) and enforces the
 * route's required access (see `RequiredAccess`).
 */
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, NotImplemented, Unauthenticated } from "../../domain/HttpErrors.js"
import { MfaEnrollmentRequired } from "../../domain/identity/Mfa.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { EmailNotVerified } from "../../domain/identity/User.js"
import { WorkspaceNotFound } from "../../domain/identity/WorkspaceNotFound.js"

/** The name of the httpOnly cookie that carries the access token for browser apps. */
export const ACCESS_COOKIE = "__Host-parley_access"

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("parley/http/Authentication", {
  provides: CurrentPrincipal,
  failure: Schema.Union(
    Unauthenticated,
    Forbidden,
    EmailNotVerified,
    MfaEnrollmentRequired,
    WorkspaceNotFound,
    NotImplemented
  ),
  security: {
    bearer: HttpApiSecurity.bearer.pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "A user access token (JWT) or a workspace API token")
    ),
    cookie: HttpApiSecurity.apiKey({ in: "cookie", key: ACCESS_COOKIE }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "The access-token cookie set at login; writes also need the X-Requested-With header (CSRF defence)"
      )
    )
  }
}) {}
