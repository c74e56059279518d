import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AlreadyMember,
  Invitation,
  InvitationAccept,
  InvitationCreate,
  InvitationEmailMismatch,
  InvitationId,
  InvitationNotFound
} from "../../domain/identity/Invitation.js"
import { InvalidToken, TokenExpired } from "../../domain/identity/OneTimeToken.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import { EmailNotVerified } from "../../domain/identity/User.js"
import { WorkspaceMembership } from "../../domain/identity/Workspace.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const invitationId = HttpApiSchema.param("invitation_id", InvitationId)

/** Invitations to the current workspace (`/v1/workspaces/invitations`), and accepting one. */
export class InvitationsApi extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("create", "/workspaces/invitations")
      .setPayload(InvitationCreate)
      .addSuccess(Invitation.json, { status: 201 })
      .addError(AlreadyMember)
      .addError(OwnerOnly)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Invite someone by email")
      .annotate(
        OpenApi.Description,
        "Mails a link (valid 7 days) that gives the role on acceptance; the link's token is never returned. Inviting " +
          "an address with a pending invitation replaces it and mails a new link. Only an owner may invite an owner."
      )
      .pipe(requires("member.manage"))
  )
  .add(
    HttpApiEndpoint.get("list", "/workspaces/invitations")
      .setUrlParams(ListParams)
      .addSuccess(Page(Invitation.json))
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Pending invitations")
      .annotate(
        OpenApi.Description,
        "Invitations not yet accepted or revoked, newest first; expired ones stay listed (compare `expiresAt`) " +
          "so they can be sent again."
      )
      .pipe(requires("member.manage"))
  )
  .add(
    HttpApiEndpoint.del("revoke")`/workspaces/invitations/${invitationId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(InvitationNotFound)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Revoke an invitation")
      .annotate(OpenApi.Description, "Its link stops working at once.")
      .pipe(requires("member.manage"))
  )
  .add(
    HttpApiEndpoint.post("accept", "/workspaces/invitations/accept")
      .setPayload(InvitationAccept)
      .addSuccess(WorkspaceMembership)
      .addError(InvalidToken)
      .addError(TokenExpired)
      .addError(InvitationEmailMismatch)
      .addError(AlreadyMember)
      .annotate(OpenApi.Summary, "Accept an invitation")
      .annotate(
        OpenApi.Description,
        "By the signed-in user whose email the invitation names (a new invitee signs up first). Makes them a member " +
          "with the invited role and, since the mail reached them, marks their email verified. Needs no " +
          "`X-Workspace-Id`: the token names the workspace."
      )
      .pipe(requires("account"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Invitations")
  .annotate(OpenApi.Description, "Invite people to a workspace by email with a role; they accept from the mailed link.")
{}
