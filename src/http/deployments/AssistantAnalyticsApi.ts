import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AssistantId, AssistantNotFound } from "../../domain/assistants/Assistant.js"
import { AssistantAnalytics, AssistantAnalyticsParams } from "../../domain/deployments/AssistantAnalytics.js"
import { DeploymentNotFound } from "../../domain/deployments/Deployment.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const agentId = HttpApiSchema.param("agent_id", AssistantId)

/** How an Assistant's deployed conversations went (`/v1/agents/{agent_id}/analytics`). */
export class AssistantAnalyticsApi extends HttpApiGroup.make("assistantAnalytics")
  .add(
    HttpApiEndpoint.get("getAnalytics")`/agents/${agentId}/analytics`
      .setUrlParams(AssistantAnalyticsParams)
      .addSuccess(AssistantAnalytics)
      .addError(AssistantNotFound)
      .addError(DeploymentNotFound)
      .annotate(OpenApi.Summary, "Sessions, completion, fallbacks, top intents and drop-offs over the last N days")
      .pipe(requires("assistant.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Assistant analytics")
  .annotate(
    OpenApi.Description,
    "Figures over an Assistant's public sessions: sessions, turns, completion and fallback rates, top intents, drop-off nodes and a daily series."
  )
{}
