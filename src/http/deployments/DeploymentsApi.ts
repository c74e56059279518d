import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AssistantId, AssistantNotFound } from "../../domain/assistants/Assistant.js"
import {
  Deployment,
  DeploymentCreate,
  DeploymentCreated,
  DeploymentCreateForAgent,
  DeploymentId,
  DeploymentListParams,
  DeploymentNotFound,
  DeploymentRefused
} from "../../domain/deployments/Deployment.js"
import { Page } from "../../domain/Pagination.js"
import { RevisionConflict } from "../../domain/Revision.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const agentId = HttpApiSchema.param("agent_id", AssistantId)
const id = HttpApiSchema.param("id", DeploymentId)

/**
 * Deployments of Assistants: immutable snapshots of a draft served to embeds
 * through a `cdp_` token. `POST /agents/{agent_id}/deployments` and
 * `POST /deployments` (with `agentId` in the body) are one operation.
 */
export class DeploymentsApi extends HttpApiGroup.make("deployments")
  .add(
    HttpApiEndpoint.post("createForAgent")`/agents/${agentId}/deployments`
      .setPayload(DeploymentCreate)
      .addSuccess(DeploymentCreated, { status: 201 })
      .addError(AssistantNotFound)
      .addError(RevisionConflict)
      .addError(DeploymentRefused)
      .annotate(OpenApi.Summary, "Deploy an Assistant's draft (the embed token is shown once)")
      .pipe(requires("assistant.deploy"))
  )
  .add(
    HttpApiEndpoint.get("list", "/deployments")
      .setUrlParams(DeploymentListParams)
      .addSuccess(Page(Deployment.json))
      .annotate(OpenApi.Summary, "List deployments, optionally of one Assistant or status")
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/deployments")
      .setPayload(DeploymentCreateForAgent)
      .addSuccess(DeploymentCreated, { status: 201 })
      .addError(AssistantNotFound)
      .addError(RevisionConflict)
      .addError(DeploymentRefused)
      .annotate(OpenApi.Summary, "Deploy the draft of the Assistant named in the body")
      .pipe(requires("assistant.deploy"))
  )
  .add(
    HttpApiEndpoint.get("get")`/deployments/${id}`
      .addSuccess(Deployment.json)
      .addError(DeploymentNotFound)
      .annotate(OpenApi.Summary, "Read a deployment")
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.post("revoke")`/deployments/${id}/revoke`
      .addSuccess(Deployment.json)
      .addError(DeploymentNotFound)
      .annotate(OpenApi.Summary, "Revoke a deployment: its token stops working at once (idempotent)")
      .pipe(requires("assistant.deploy"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Deployments")
  .annotate(
    OpenApi.Description,
    "Immutable snapshots of an Assistant (flow, intents, NLU model) served to embeds by a cdp_ token from allowed origins. A draft with analysis errors is refused (422)."
  )
{}
