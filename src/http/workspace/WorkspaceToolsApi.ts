import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Timeout, UpstreamFailed } from "../../domain/HttpErrors.js"
import { Page } from "../../domain/Pagination.js"
import { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { ForceDeleteParams } from "../../domain/workspace/ResourceRef.js"
import { SecretReferenceMissing } from "../../domain/workspace/Secret.js"
import {
  ToolInputInvalid,
  WorkspaceToolTestRequest,
  WorkspaceToolTestResult
} from "../../domain/workspace/ToolCallResult.js"
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
  .add(
    HttpApiEndpoint.post("test")`/workspace-tools/${toolId}/test`
      .setPayload(WorkspaceToolTestRequest)
      .addSuccess(WorkspaceToolTestResult)
      .addError(WorkspaceToolNotFound)
      .addError(ToolInputInvalid)
      .addError(SecretReferenceMissing)
      .addError(UpstreamFailed)
      .addError(Timeout)
      .annotate(OpenApi.Summary, "Run a tool once with sample input")
      .annotate(
        OpenApi.Description,
        "Checks `input` against the tool's input schema, fills the templates, reads the secrets from the vault and " +
          "sends the request: the answer reports the status, latency, the start of the response (16 KiB) and the " +
          "request as sent, with every secret value masked (also where the upstream echoes one back). Any answer " +
          "of the upstream is a result (`ok: false` for a non-2xx status or a body over `maxResponseBytes`); no " +
          "answer at all (refused by the address rule, DNS, connection, too many redirects) is `UpstreamFailed`, " +
          "and a time-out is `Timeout`. Nothing is stored."
      )
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
