import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Page } from "../../domain/Pagination.js"
import { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { ForceDeleteParams } from "../../domain/workspace/ResourceRef.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import {
  WorkspaceTool,
  WorkspaceToolCreate,
  WorkspaceToolInUse,
  WorkspaceToolInvalid,
  WorkspaceToolListParams,
  WorkspaceToolNameTaken,
  WorkspaceToolNotFound,
  WorkspaceToolPatch
} from "../../domain/workspace/WorkspaceTool.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const toolId = HttpApiSchema.param("tool_id", WorkspaceToolId)

/** Shared HTTP tools of the workspace (`/v1/workspace-tools`). */
export class WorkspaceToolsApi extends HttpApiGroup.make("workspaceTools")
  .add(
    HttpApiEndpoint.get("list", "/workspace-tools")
      .setUrlParams(WorkspaceToolListParams)
      .addSuccess(Page(WorkspaceTool.json))
      .annotate(OpenApi.Summary, "List the workspace's HTTP tools")
      .pipe(requires("tool.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/workspace-tools")
      .setPayload(WorkspaceToolCreate)
      .addSuccess(WorkspaceTool.json, { status: 201 })
      .addError(WorkspaceToolNameTaken)
      .addError(WorkspaceToolInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Summary, "Create an HTTP tool")
      .pipe(requires("tool.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/workspace-tools/${toolId}`
      .addSuccess(WorkspaceTool.json)
      .addError(WorkspaceToolNotFound)
      .annotate(OpenApi.Summary, "Read an HTTP tool")
      .pipe(requires("tool.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/workspace-tools/${toolId}`
      .setPayload(WorkspaceToolPatch)
      .addSuccess(WorkspaceTool.json)
      .addError(WorkspaceToolNotFound)
      .addError(WorkspaceToolNameTaken)
      .addError(WorkspaceToolInvalid)
      .addError(SecretReferenceMissing)
      .annotate(OpenApi.Summary, "Change an HTTP tool")
      .pipe(requires("tool.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/workspace-tools/${toolId}`
      .setUrlParams(ForceDeleteParams)
      .addError(WorkspaceToolNotFound)
      .addError(WorkspaceToolInUse)
      .annotate(OpenApi.Summary, "Delete an HTTP tool (409 while in use, unless ?force=true)")
      .pipe(requires("tool.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workspace tools")
  .annotate(
    OpenApi.Description,
    "Shared HTTP tools that AI agents, flow `http` nodes and workflow `http` nodes reference. Headers and query parameters may read vault secrets by name; their values never appear in a response."
  )
{}
