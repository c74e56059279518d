/**
 * The contract bound to its handlers and middleware. Each group is either
 * built or answers 501 through `notImplementedGroup`, so this file shows at a
 * glance how far Parley has come.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "./Api.js"
import { HealthHttpLive } from "./health/HealthHttp.js"
import { MetricsAuthLive } from "./middleware/MetricsAuthLive.js"
import {
  AuthenticationNotBuilt,
  ChannelSignatureNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt
} from "./middleware/SecurityNotBuilt.js"
import { notImplementedGroup } from "./NotImplementedHttp.js"

const Groups = Layer.mergeAll(
  HealthHttpLive,
  notImplementedGroup("auth"),
  notImplementedGroup("account"),
  notImplementedGroup("mfa"),
  notImplementedGroup("jwks"),
  notImplementedGroup("workspaces"),
  notImplementedGroup("members"),
  notImplementedGroup("invitations"),
  notImplementedGroup("apiTokens"),
  notImplementedGroup("audit"),
  notImplementedGroup("assistants"),
  notImplementedGroup("flows"),
  notImplementedGroup("assistantAnalytics"),
  notImplementedGroup("imports"),
  notImplementedGroup("deployments"),
  notImplementedGroup("runtime"),
  notImplementedGroup("publicRuntime"),
  notImplementedGroup("aiAgents"),
  notImplementedGroup("aiAgentReleases"),
  notImplementedGroup("aiAgentTasks"),
  notImplementedGroup("aiAgentTools"),
  notImplementedGroup("aiAgentMemory"),
  notImplementedGroup("aiAgentKnowledge"),
  notImplementedGroup("aiAgentGuardrails"),
  notImplementedGroup("aiAgentEvals"),
  notImplementedGroup("aiAgentConversations"),
  notImplementedGroup("aiAgentDrafts"),
  notImplementedGroup("publicAiAgents"),
  notImplementedGroup("workflows"),
  notImplementedGroup("workflowSimulator"),
  notImplementedGroup("chains"),
  notImplementedGroup("publicChains"),
  notImplementedGroup("usage"),
  notImplementedGroup("workspaceTools"),
  notImplementedGroup("secrets"),
  notImplementedGroup("agentSettings"),
  notImplementedGroup("workspaceModels"),
  notImplementedGroup("leads"),
  notImplementedGroup("support"),
  notImplementedGroup("channels"),
  notImplementedGroup("publicChannels")
)

const Middleware = Layer.mergeAll(
  MetricsAuthLive,
  AuthenticationNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt,
  ChannelSignatureNotBuilt
)

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(Groups), Layer.provide(Middleware))
