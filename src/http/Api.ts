/**
 * The whole Parley contract: every route, its schemas, its errors and its
 * security. It imports nothing of the server, so another service builds a
 * typed client with `HttpApiClient.make(Api)` from `parley/api`.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import {
  InternalError,
  MalformedBody,
  NotImplemented,
  NotReady,
  Overloaded,
  PayloadTooLarge,
  RateLimited,
  Timeout,
  UnsupportedMediaType
} from "../domain/HttpErrors.js"
import { InvalidText } from "../domain/StorableText.js"
import { AiAgentConversationsApi } from "./aiAgents/AiAgentConversationsApi.js"
import { AiAgentDraftsApi } from "./aiAgents/AiAgentDraftsApi.js"
import { AiAgentEvalsApi } from "./aiAgents/AiAgentEvalsApi.js"
import { AiAgentGuardrailsApi } from "./aiAgents/AiAgentGuardrailsApi.js"
import { AiAgentKnowledgeApi } from "./aiAgents/AiAgentKnowledgeApi.js"
import { AiAgentMemoryApi } from "./aiAgents/AiAgentMemoryApi.js"
import { AiAgentReleasesApi } from "./aiAgents/AiAgentReleasesApi.js"
import { AiAgentsApi } from "./aiAgents/AiAgentsApi.js"
import { AiAgentTasksApi } from "./aiAgents/AiAgentTasksApi.js"
import { AiAgentToolsApi } from "./aiAgents/AiAgentToolsApi.js"
import { PublicAiAgentsApi } from "./aiAgents/PublicAiAgentsApi.js"
import { AssistantsApi } from "./assistants/AssistantsApi.js"
import { FlowsApi } from "./assistants/FlowsApi.js"
import { ChannelsApi } from "./channels/ChannelsApi.js"
import { PublicChannelsApi } from "./channels/PublicChannelsApi.js"
import { AssistantAnalyticsApi } from "./deployments/AssistantAnalyticsApi.js"
import { DeploymentsApi } from "./deployments/DeploymentsApi.js"
import { HealthApi } from "./health/HealthApi.js"
import { AccountApi } from "./identity/AccountApi.js"
import { ApiTokensApi } from "./identity/ApiTokensApi.js"
import { AuditApi } from "./identity/AuditApi.js"
import { AuthApi } from "./identity/AuthApi.js"
import { InvitationsApi } from "./identity/InvitationsApi.js"
import { JwksApi } from "./identity/JwksApi.js"
import { MembersApi } from "./identity/MembersApi.js"
import { MfaApi } from "./identity/MfaApi.js"
import { WorkspacesApi } from "./identity/WorkspacesApi.js"
import { ImportsApi } from "./imports/ImportsApi.js"
import { RequestContext } from "./middleware/RequestContext.js"
import { WorkspaceModelsApi } from "./models/WorkspaceModelsApi.js"
import { PublicRuntimeApi } from "./runtime/PublicRuntimeApi.js"
import { RuntimeApi } from "./runtime/RuntimeApi.js"
import { AgentSettingsApi } from "./settings/AgentSettingsApi.js"
import { ChainsApi } from "./workflows/ChainsApi.js"
import { PublicChainsApi } from "./workflows/PublicChainsApi.js"
import { WorkflowsApi } from "./workflows/WorkflowsApi.js"
import { WorkflowSimulatorApi } from "./workflows/WorkflowSimulatorApi.js"
import { LeadsApi } from "./workspace/LeadsApi.js"
import { SecretsApi } from "./workspace/SecretsApi.js"
import { SupportApi } from "./workspace/SupportApi.js"
import { UsageApi } from "./workspace/UsageApi.js"
import { WorkspaceToolsApi } from "./workspace/WorkspaceToolsApi.js"

export class Api extends HttpApi.make("parley")
  // Operations
  .add(HealthApi)
  // Identity and access
  .add(AuthApi)
  .add(AccountApi)
  .add(MfaApi)
  .add(JwksApi)
  .add(WorkspacesApi)
  .add(MembersApi)
  .add(InvitationsApi)
  .add(ApiTokensApi)
  .add(AuditApi)
  // Scripted Assistants
  .add(AssistantsApi)
  .add(FlowsApi)
  .add(AssistantAnalyticsApi)
  .add(ImportsApi)
  .add(DeploymentsApi)
  .add(RuntimeApi)
  .add(PublicRuntimeApi)
  // AI agents
  .add(AiAgentsApi)
  .add(AiAgentReleasesApi)
  .add(AiAgentTasksApi)
  .add(AiAgentToolsApi)
  .add(AiAgentMemoryApi)
  .add(AiAgentKnowledgeApi)
  .add(AiAgentGuardrailsApi)
  .add(AiAgentEvalsApi)
  .add(AiAgentConversationsApi)
  .add(AiAgentDraftsApi)
  .add(PublicAiAgentsApi)
  // Workflows and chains
  .add(WorkflowsApi)
  .add(WorkflowSimulatorApi)
  .add(ChainsApi)
  .add(PublicChainsApi)
  // Workspace administration
  .add(UsageApi)
  .add(WorkspaceToolsApi)
  .add(SecretsApi)
  .add(AgentSettingsApi)
  .add(WorkspaceModelsApi)
  .add(LeadsApi)
  .add(SupportApi)
  // Channels and voice
  .add(ChannelsApi)
  .add(PublicChannelsApi)
  .addError(MalformedBody)
  .addError(InvalidText)
  .addError(PayloadTooLarge)
  .addError(UnsupportedMediaType)
  .addError(RateLimited)
  .addError(NotImplemented)
  .addError(Overloaded)
  // Any route whose statement the database ends or cannot run for now (`DatabaseUnavailable.ts`).
  .addError(NotReady)
  .addError(Timeout)
  .addError(InternalError)
  // Every route: the request's origin, provided once (handlers read `CurrentOrigin`).
  .middleware(RequestContext)
  .annotate(OpenApi.Title, "Parley")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.License, { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" })
  .annotate(OpenApi.Servers, [{ url: "/", description: "This Parley node" }])
  .annotate(
    OpenApi.Description,
    "An open back end for building, publishing and running conversational software: scripted Assistants, " +
      "AI agents, graph workflows and chains, the workspace administration around them, and their runtime.\n\n" +
      "## Getting started\n\n" +
      "1. `POST /v1/auth/signup` with an email and a password. The answer's `accessToken` goes in " +
      "`Authorization: Bearer …` (Authentication, above), your workspace's id (`GET /v1/auth/me`, " +
      "`memberships[0].workspace.id`) in `X-Workspace-Id`.\n" +
      "2. Confirm the address with the link Parley mails (a node without `PARLEY_SMTP_URL` logs it): publishing " +
      "and inviting need it.\n" +
      "3. `POST /v1/agents` creates an Assistant and `PUT /v1/agents/{agent_id}/flow` sets its flow: nodes (a " +
      "`start`, a `question`, an `end`…) and the edges between them.\n" +
      "4. `POST /v1/agents/{agent_id}/deployments` with your website's origin publishes it and answers the " +
      "`<script>` snippet for your page.\n\n" +
      "A turn takes an `Idempotency-Key`: retried with the same key and body, it happens once. Every error is " +
      "JSON with `_tag` and `message`; a `429` or `503` says when to retry (`Retry-After`)."
  )
{}
