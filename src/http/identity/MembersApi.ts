import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { UserId } from "../../domain/identity/Ids.js"
import { LastOwner, Member, MemberNotFound, MemberRoleChange } from "../../domain/identity/Membership.js"
import { OwnerOnly } from "../../domain/identity/OwnerOnly.js"
import { EmailNotVerified } from "../../domain/identity/User.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const userId = HttpApiSchema.param("user_id", UserId)

/** The members of the current workspace (`/v1/workspaces/members`) and their roles. */
export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/workspaces/members")
      .setUrlParams(ListParams)
      .addSuccess(Page(Member))
      .annotate(OpenApi.Summary, "The workspace's members")
      .annotate(OpenApi.Description, "Members with their role, oldest first.")
      .pipe(requires("member.read"))
  )
  .add(
    HttpApiEndpoint.patch("changeRole")`/workspaces/members/${userId}`
      .setPayload(MemberRoleChange)
      .addSuccess(Member)
      .addError(MemberNotFound)
      .addError(OwnerOnly)
      .addError(LastOwner)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Change a member's role")
      .annotate(
        OpenApi.Description,
        "Only an owner may make someone owner or change an owner's role (`OwnerOnly`); demoting the last owner is " +
          "refused (`LastOwner`). The new role takes effect on the member's next request."
      )
      .pipe(requires("member.manage"))
  )
  .add(
    HttpApiEndpoint.del("remove")`/workspaces/members/${userId}`
      .addSuccess(HttpApiSchema.NoContent)
      .addError(MemberNotFound)
      .addError(OwnerOnly)
      .addError(LastOwner)
      .addError(EmailNotVerified)
      .annotate(OpenApi.Summary, "Remove a member")
      .annotate(
        OpenApi.Description,
        "Only an owner may remove an owner (`OwnerOnly`); the last owner cannot leave (`LastOwner`). The member " +
          "loses access at once; API tokens they created keep working until revoked."
      )
      .pipe(requires("member.manage"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Members")
  .annotate(
    OpenApi.Description,
    "Roles, each holding the ones below it: viewer < editor < developer < admin < owner. Every workspace keeps at " +
      "least one owner."
  )
{}
