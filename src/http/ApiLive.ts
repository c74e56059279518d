/**
 * The contract bound to its handlers and middleware. Each group is either
 * built or answers 501 through `notImplementedGroup`, so this file shows at a
 * glance how far Parley has come.
 */
import { HttpApiBuilder, type HttpApiGroup } from "@effect/platform"
import { Layer } from "effect"
import { AiAgentConversationsHttpLive } from "./aiAgents/AiAgentConversationsHttp.js"
import { AiAgentDraftsHttpLive } from "./aiAgents/AiAgentDraftsHttp.js"
import { AiAgentEvalsHttpLive } from "./aiAgents/AiAgentEvalsHttp.js"
import { AiAgentGuardrailsHttpLive } from "./aiAgents/AiAgentGuardrailsHttp.js"
import { AiAgentKnowledgeHttpLive } from "./aiAgents/AiAgentKnowledgeHttp.js"
import { AiAgentMemoryHttpLive } from "./aiAgents/AiAgentMemoryHttp.js"
import { AiAgentReleasesHttpLive } from "./aiAgents/AiAgentReleasesHttp.js"
import { AiAgentsHttpLive } from "./aiAgents/AiAgentsHttp.js"
import { AiAgentTasksHttpLive } from "./aiAgents/AiAgentTasksHttp.js"
import { AiAgentToolsHttpLive } from "./aiAgents/AiAgentToolsHttp.js"
import { PublicAiAgentsHttpLive } from "./aiAgents/PublicAiAgentsHttp.js"
import { Api } from "./Api.js"
import { AssistantsHttpLive } from "./assistants/AssistantsHttp.js"
import { FlowsHttpLive } from "./assistants/FlowsHttp.js"
import { requireWebSocketUpgrade } from "./channels/VoiceStreamUpgrade.js"
import { AssistantAnalyticsHttpLive } from "./deployments/AssistantAnalyticsHttp.js"
import { DeploymentsHttpLive } from "./deployments/DeploymentsHttp.js"
import { HealthHttpLive } from "./health/HealthHttp.js"
import { AccountHttpLive } from "./identity/AccountHttp.js"
import { ApiTokensHttpLive } from "./identity/ApiTokensHttp.js"
import { AuditHttpLive } from "./identity/AuditHttp.js"
import { AuthHttpLive } from "./identity/AuthHttp.js"
import { InvitationsHttpLive } from "./identity/InvitationsHttp.js"
import { JwksHttpLive } from "./identity/JwksHttp.js"
import { MembersHttpLive } from "./identity/MembersHttp.js"
import { MfaHttpLive } from "./identity/MfaHttp.js"
import { WorkspacesHttpLive } from "./identity/WorkspacesHttp.js"
import { ImportsHttpLive } from "./imports/ImportsHttp.js"
import { AuthenticationLive } from "./middleware/AuthenticationLive.js"
import { EmbedAuthenticationLive } from "./middleware/EmbedAuthenticationLive.js"
import { IngressSignatureLive } from "./middleware/IngressSignatureLive.js"
import { MetricsAuthLive } from "./middleware/MetricsAuthLive.js"
import { RequestContextLive } from "./middleware/RequestContextLive.js"
import { ChannelSignatureNotBuilt } from "./middleware/SecurityNotBuilt.js"
import { type GroupName, notImplementedGroup, type ProtocolCheck } from "./NotImplementedHttp.js"
import { PublicRuntimeHttpLive } from "./runtime/PublicRuntimeHttp.js"
import { RuntimeHttpLive } from "./runtime/RuntimeHttp.js"
import { AgentSettingsHttpLive } from "./settings/AgentSettingsHttp.js"
import { ChainsHttpLive } from "./workflows/ChainsHttp.js"
import { PublicChainsHttpLive } from "./workflows/PublicChainsHttp.js"
import { WorkflowsHttpLive } from "./workflows/WorkflowsHttp.js"
import { WorkflowSimulatorHttpLive } from "./workflows/WorkflowSimulatorHttp.js"
import { LeadsHttpLive } from "./workspace/LeadsHttp.js"
import { SecretsHttpLive } from "./workspace/SecretsHttp.js"
import { SupportHttpLive } from "./workspace/SupportHttp.js"
import { UsageHttpLive } from "./workspace/UsageHttp.js"
import { WorkspaceToolsHttpLive } from "./workspace/WorkspaceToolsHttp.js"

/** The groups whose area is not built yet: each of their routes answers 501 naming itself. */
export const notBuiltGroups = [
  "workspaceModels",
  "channels",
  "publicChannels"
] as const satisfies ReadonlyArray<GroupName>

/** Checks that hold before an area is built: a WebSocket route refuses a plain GET with 426. */
const protocolChecks: Partial<Record<GroupName, Readonly<Record<string, ProtocolCheck>>>> = {
  publicChannels: { voiceStream: requireWebSocketUpgrade }
}

const NotBuilt = notBuiltGroups.map((group) => notImplementedGroup(group, protocolChecks[group])).reduce(
  (all, group) => Layer.merge(all, group),
  Layer.empty
) as Layer.Layer<HttpApiGroup.ApiGroup<"parley", (typeof notBuiltGroups)[number]>>

const Groups = Layer.mergeAll(
  HealthHttpLive,
  AuthHttpLive,
  AccountHttpLive,
  MfaHttpLive,
  JwksHttpLive,
  WorkspacesHttpLive,
  MembersHttpLive,
  InvitationsHttpLive,
  ApiTokensHttpLive,
  AuditHttpLive,
  AssistantsHttpLive,
  FlowsHttpLive,
  ImportsHttpLive,
  RuntimeHttpLive,
  DeploymentsHttpLive,
  PublicRuntimeHttpLive,
  AssistantAnalyticsHttpLive,
  AgentSettingsHttpLive,
  SecretsHttpLive,
  WorkspaceToolsHttpLive,
  UsageHttpLive,
  LeadsHttpLive,
  SupportHttpLive,
  AiAgentsHttpLive,
  AiAgentTasksHttpLive,
  AiAgentToolsHttpLive,
  AiAgentConversationsHttpLive,
  AiAgentMemoryHttpLive,
  AiAgentReleasesHttpLive,
  AiAgentDraftsHttpLive,
  AiAgentEvalsHttpLive,
  AiAgentGuardrailsHttpLive,
  AiAgentKnowledgeHttpLive,
  PublicAiAgentsHttpLive,
  ChainsHttpLive,
  PublicChainsHttpLive,
  WorkflowsHttpLive,
  WorkflowSimulatorHttpLive,
  NotBuilt
)

const Middleware = Layer.mergeAll(
  RequestContextLive,
  MetricsAuthLive,
  AuthenticationLive,
  EmbedAuthenticationLive,
  IngressSignatureLive,
  ChannelSignatureNotBuilt
)

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(Groups), Layer.provide(Middleware))
