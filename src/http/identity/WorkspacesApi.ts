import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { WorkspaceCreate, WorkspaceMembership, WorkspaceSlugTaken } from "../../domain/identity/Workspace.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

/** The caller's workspaces (`/v1/workspaces`): list them and create one. */
export class WorkspacesApi extends HttpApiGroup.make("workspaces")
  .add(
    HttpApiEndpoint.get("list", "/workspaces")
      .setUrlParams(ListParams)
      .addSuccess(Page(WorkspaceMembership))
      .annotate(OpenApi.Summary, "The caller's workspaces with their role")
      .annotate(
        OpenApi.Description,
        "Every workspace the signed-in user belongs to, oldest membership first; the first is the one a request " +
          "without `X-Workspace-Id` acts in."
      )
      .pipe(requires("account"))
  )
  .add(
    HttpApiEndpoint.post("create", "/workspaces")
      .setPayload(WorkspaceCreate)
      .addSuccess(WorkspaceMembership, { status: 201 })
      .addError(WorkspaceSlugTaken)
      .annotate(OpenApi.Summary, "Create a workspace")
      .annotate(
        OpenApi.Description,
        "Creates a workspace with a name and a slug unique on this server; the caller becomes its owner."
      )
      .pipe(requires("account"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workspaces")
  .annotate(
    OpenApi.Description,
    "Workspaces own every resource. A request selects one with `X-Workspace-Id`; a workspace the caller is not a " +
      "member of is a 404."
  )
{}
