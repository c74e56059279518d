/**
 * The contract bound to its handlers and middleware. Each group is either
 * built or answers 501 through `notImplementedGroup`, so this file shows at a
 * glance how far Parley has come.
 */
import { HttpApiBuilder, type HttpApiGroup } from "@effect/platform"
import { Layer } from "effect"
import { Api } from "./Api.js"
import { requireWebSocketUpgrade } from "./channels/VoiceStreamUpgrade.js"
import { HealthHttpLive } from "./health/HealthHttp.js"
import { MetricsAuthLive } from "./middleware/MetricsAuthLive.js"
import {
  AuthenticationNotBuilt,
  ChannelSignatureNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt
} from "./middleware/SecurityNotBuilt.js"
import { type GroupName, notImplementedGroup, type ProtocolCheck } from "./NotImplementedHttp.js"

/** The groups whose area is not built yet: each of their routes answers 501 naming itself. */
export const notBuiltGroups = [
  "auth",
  "account",
  "mfa",
  "jwks",
  "workspaces",
  "members",
  "invitations",
  "apiTokens",
  "audit",
  "assistants",
  "flows",
  "assistantAnalytics",
  "imports",
  "deployments",
  "runtime",
  "publicRuntime",
  "aiAgents",
  "aiAgentReleases",
  "aiAgentTasks",
  "aiAgentTools",
  "aiAgentMemory",
  "aiAgentKnowledge",
  "aiAgentGuardrails",
  "aiAgentEvals",
  "aiAgentConversations",
  "aiAgentDrafts",
  "publicAiAgents",
  "workflows",
  "workflowSimulator",
  "chains",
  "publicChains",
  "usage",
  "workspaceTools",
  "secrets",
  "agentSettings",
  "workspaceModels",
  "leads",
  "support",
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

const Groups = Layer.mergeAll(HealthHttpLive, NotBuilt)

const Middleware = Layer.mergeAll(
  MetricsAuthLive,
  AuthenticationNotBuilt,
  EmbedAuthenticationNotBuilt,
  IngressSignatureNotBuilt,
  ChannelSignatureNotBuilt
)

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(Groups), Layer.provide(Middleware))
