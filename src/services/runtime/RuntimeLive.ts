/**
 * The runtime of a node: its place in the cluster, the `RuntimeSession` and
 * `AgentConversation` entities it hosts for its shards, and the services the
 * HTTP handlers call.
 * It needs the Assistants service (drafts) and the database.
 */
import { Layer } from "effect"
import { AgentConversationLive } from "../../actors/AgentConversationLive.js"
import { ClusterLive } from "../../actors/Cluster.js"
import { RuntimeSessionLive } from "../../actors/RuntimeSessionLive.js"
import { AgentConversationRepo } from "../../persistence/aiAgents/AgentConversationRepo.js"
import { RuntimeSessionRepo } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { AgentRuntime } from "../aiAgents/AgentRuntime.js"
import { AgentTurns } from "../aiAgents/AgentTurns.js"
import { AgentTurnStreams } from "../aiAgents/AgentTurnStreams.js"
import { TurnDeltas } from "../aiAgents/TurnDeltas.js"
import { DeploymentPrograms } from "./DeploymentPrograms.js"
import { DraftPrograms } from "./DraftPrograms.js"
import { PublicSessions } from "./PublicSessions.js"
import { RuntimeSessions } from "./RuntimeSessions.js"
import { TurnSender } from "./TurnSender.js"

export const RuntimeLive = Layer.mergeAll(
  RuntimeSessions.Default,
  PublicSessions.Default,
  RuntimeSessionLive,
  AgentTurnStreams.Default.pipe(Layer.provideMerge(AgentTurns.Default)),
  AgentConversationLive
).pipe(
  Layer.provide([DraftPrograms.Default, DeploymentPrograms.Default, RuntimeSessionRepo.Default, TurnSender.Default]),
  Layer.provide([AgentRuntime.Default, AgentConversationRepo.Default, TurnDeltas.Default]),
  Layer.provideMerge(ClusterLive)
)
