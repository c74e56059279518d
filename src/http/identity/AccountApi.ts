import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { SessionId } from "../../domain/identity/Ids.js"
import { InvalidCredentials } from "../../domain/identity/Login.js"
import { Me } from "../../domain/identity/Me.js"
import { InvalidMfaCode } from "../../domain/identity/Mfa.js"
import { WeakPassword } from "../../domain/identity/Password.js"
import { ChangePasswordRequest, PasswordChanged } from "../../domain/identity/PasswordChange.js"
import {
  Reauthenticated,
  ReauthenticateRequest,
  ReauthenticationRequired,
  SessionInfo,
  SessionNotFound
} from "../../domain/identity/Session.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const sessionId = HttpApiSchema.param("id", SessionId)

/** The signed-in user's own account: who they are, where they belong, where they are signed in. */
export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("me", "/auth/me")
      .addSuccess(Me)
      .annotate(OpenApi.Summary, "The signed-in user and their workspaces")
      .annotate(
        OpenApi.Description,
        "The user, the current session's id, and every workspace they belong to with their role, oldest membership " +
          "first (the first is the workspace a request without `X-Workspace-Id` acts in)."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.get("listSessions", "/auth/sessions")
      .setUrlParams(ListParams)
      .addSuccess(Page(SessionInfo))
      .annotate(OpenApi.Summary, "The user's signed-in sessions")
      .annotate(
        OpenApi.Description,
        "Active sessions, most recently used first, with user agent, address, creation, last use, expiry and " +
          "whether it is the current one."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.del("deleteSession")`/auth/sessions/${sessionId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(SessionNotFound)
      .addError(ReauthenticationRequired)
      .annotate(OpenApi.Summary, "Sign out one session")
      .annotate(
        OpenApi.Description,
        "Ends one of the user's sessions; its access tokens stop working at once. Ending the current session is a " +
          "logout (its cookies are cleared). Ending another one needs this session to have proved every factor " +
          "in the last 10 minutes (its sign-in or `POST /v1/auth/reauthenticate`), else `ReauthenticationRequired`."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("reauthenticate", "/auth/reauthenticate")
      .setPayload(ReauthenticateRequest)
      .addSuccess(Reauthenticated)
      .addError(InvalidCredentials)
      .addError(InvalidMfaCode)
      .annotate(OpenApi.Summary, "Confirm the password (and code) again")
      .annotate(
        OpenApi.Description,
        "Proves every factor of the account again (the password, and a TOTP or recovery code when MFA is on), so " +
          "this session counts as recently authenticated for 10 minutes: ending other sessions needs that. " +
          "Rate limited per account."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/auth/change-password")
      .setPayload(ChangePasswordRequest)
      .addSuccess(PasswordChanged)
      .addError(InvalidCredentials)
      .addError(InvalidMfaCode)
      .addError(WeakPassword)
      .annotate(OpenApi.Summary, "Change the password")
      .annotate(
        OpenApi.Description,
        "Needs the current password, the new one (12 to 256 characters, not a common password, not containing the " +
          "email address) and, when MFA is on, a TOTP or recovery code. Outstanding reset links stop working; " +
          "every other session ends unless `signOutOtherSessions` is false; this session stays signed in. A " +
          "notice is mailed. Rate limited per account."
      )
      .pipe(requires("account"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Account")
  .annotate(OpenApi.Description, "The signed-in user's profile, memberships and sessions.")
{}
