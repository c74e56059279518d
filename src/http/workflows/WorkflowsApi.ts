import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { ListParams, Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { WorkflowId, WorkflowVersionParam } from "../../domain/workflows/Ids.js"
import { PublishCheck, WorkflowPublishRefused } from "../../domain/workflows/PublishProblem.js"
import {
  Workflow,
  WorkflowCreate,
  WorkflowInUse,
  WorkflowListParams,
  WorkflowNotFound,
  WorkflowPatch,
  WorkflowSummary
} from "../../domain/workflows/Workflow.js"
import { WorkflowGraphReplace } from "../../domain/workflows/WorkflowGraph.js"
import {
  WorkflowPublishRequest,
  WorkflowVersion,
  WorkflowVersionNotFound
} from "../../domain/workflows/WorkflowVersion.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const id = HttpApiSchema.param("id", WorkflowId)
const versionId = HttpApiSchema.param("version_id", WorkflowVersionParam)

/** Graph workflows: the draft graph, validation, publish and versions (`/v1/workflows`). */
export class WorkflowsApi extends HttpApiGroup.make("workflows")
  .add(
    HttpApiEndpoint.get("list", "/workflows")
      .setUrlParams(WorkflowListParams)
      .addSuccess(Page(WorkflowSummary))
      .annotate(OpenApi.Summary, "List workflows (without their graphs)")
      .pipe(requires("workflow.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/workflows")
      .setPayload(WorkflowCreate)
      .addSuccess(Workflow.json, { status: 201 })
      .annotate(OpenApi.Summary, "Create a workflow (with an empty graph unless one is given)")
      .pipe(requires("workflow.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/workflows/${id}`
      .addSuccess(Workflow.json)
      .addError(WorkflowNotFound)
      .annotate(OpenApi.Summary, "Get a workflow with its draft graph")
      .pipe(requires("workflow.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/workflows/${id}`
      .setHeaders(IfMatchHeaders)
      .setPayload(WorkflowPatch)
      .addSuccess(Workflow.json)
      .addError(WorkflowNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Rename or describe a workflow")
      .pipe(requires("workflow.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/workflows/${id}`
      .addError(WorkflowNotFound)
      .addError(WorkflowInUse)
      .annotate(OpenApi.Summary, "Delete a workflow and its versions (refused while a chain runs it)")
      .pipe(requires("workflow.write"))
  )
  .add(
    HttpApiEndpoint.put("replaceGraph")`/workflows/${id}/graph`
      .setHeaders(IfMatchHeaders)
      .setPayload(WorkflowGraphReplace)
      .addSuccess(Workflow.json)
      .addError(WorkflowNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Replace the draft graph")
      .pipe(requires("workflow.write"))
  )
  .add(
    HttpApiEndpoint.post("validatePublish")`/workflows/${id}/validate-publish`
      .addSuccess(PublishCheck)
      .addError(WorkflowNotFound)
      .annotate(OpenApi.Summary, "List every problem that would block or weaken a publish, without publishing")
      .pipe(requires("workflow.read"))
  )
  .add(
    HttpApiEndpoint.post("publish")`/workflows/${id}/publish`
      .setHeaders(IfMatchHeaders)
      .setPayload(WorkflowPublishRequest)
      .addSuccess(WorkflowVersion.json, { status: 201 })
      .addError(WorkflowNotFound)
      .addError(RevisionConflict)
      .addError(WorkflowPublishRefused)
      .annotate(OpenApi.Summary, "Publish the draft as the next version and make it live")
      .pipe(requires("workflow.publish"))
  )
  .add(
    HttpApiEndpoint.get("listVersions")`/workflows/${id}/versions`
      .setUrlParams(ListParams)
      .addSuccess(Page(WorkflowVersion.json))
      .addError(WorkflowNotFound)
      .annotate(OpenApi.Summary, "List versions (published ones and saved drafts), newest first")
      .pipe(requires("workflow.read"))
  )
  .add(
    HttpApiEndpoint.post("restoreVersion")`/workflows/${id}/versions/${versionId}/restore`
      .setHeaders(IfMatchHeaders)
      .addSuccess(Workflow.json)
      .addError(WorkflowNotFound)
      .addError(WorkflowVersionNotFound)
      .addError(RevisionConflict)
      .annotate(
        OpenApi.Summary,
        "Copy a version's graph into the draft (a draft no version holds is saved as one first; the live version is unchanged)"
      )
      .pipe(requires("workflow.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workflows")
  .annotate(
    OpenApi.Description,
    "Graph workflows: a draft graph of typed nodes (JSONata expressions), validated and published as numbered versions."
  )
{}
