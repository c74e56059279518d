import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { SessionId } from "../../domain/identity/Ids.js"
import { Me } from "../../domain/identity/Me.js"
import { SessionInfo, SessionNotFound } from "../../domain/identity/Session.js"
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
      .annotate(OpenApi.Summary, "Sign out one session")
      .annotate(
        OpenApi.Description,
        "Ends one of the user's sessions; its access tokens stop working at once. Ending the current session is a " +
          "logout (its cookies are cleared)."
      )
      .pipe(requires("account"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Account")
  .annotate(OpenApi.Description, "The signed-in user's profile, memberships and sessions.")
{}
