/**
 * The runtime of a node: its place in the cluster, the `RuntimeSession`,
 * `AgentConversation` and `WorkflowSimSession` entities and the `ChainRun`
 * workflows it hosts for its shards, and the services the HTTP handlers call.
 * It needs the Assistants service (drafts) and the database.
 */
import { ClusterWorkflowEngine } from "@effect/cluster"
import { Layer } from "effect"
import { AgentConversationLive } from "../../actors/AgentConversationLive.js"
import { ChainRunWorkflowLive } from "../../actors/ChainRunWorkflowLive.js"
import { ClusterLive } from "../../actors/Cluster.js"
import { RuntimeSessionLive } from "../../actors/RuntimeSessionLive.js"
import { WorkflowSimSessionLive } from "../../actors/WorkflowSimSessionLive.js"
import { AgentConversationRepo } from "../../persistence/aiAgents/AgentConversationRepo.js"
import { RuntimeSessionRepo } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { ChainRunRepo } from "../../persistence/workflows/ChainRunRepo.js"
import { WorkflowSimSessionRepo } from "../../persistence/workflows/WorkflowSimSessionRepo.js"
import { AgentRuntime } from "../aiAgents/AgentRuntime.js"
import { AgentTurns } from "../aiAgents/AgentTurns.js"
import { AgentTurnStreams } from "../aiAgents/AgentTurnStreams.js"
import { TurnDeltas } from "../aiAgents/TurnDeltas.js"
import { ChainEvents } from "../workflows/ChainEvents.js"
import { ChainRuns } from "../workflows/ChainRuns.js"
import { WorkflowCallouts } from "../workflows/WorkflowCallouts.js"
import { WorkflowSimulator } from "../workflows/WorkflowSimulator.js"
import { DeploymentPrograms } from "./DeploymentPrograms.js"
import { DraftPrograms } from "./DraftPrograms.js"
import { PublicSessions } from "./PublicSessions.js"
import { RuntimeSessions } from "./RuntimeSessions.js"
import { TurnSender } from "./TurnSender.js"

const AgentTurnsLive = AgentTurnStreams.Default.pipe(Layer.provideMerge(AgentTurns.Default))

/** Chain runs: the durable `ChainRun` workflow on the cluster's workflow engine, and the service that starts them. */
const ChainRunsLive = Layer.mergeAll(ChainRuns.Default, ChainRunWorkflowLive).pipe(
  Layer.provide([WorkflowCallouts.Default, ChainRunRepo.Default, ChainEvents.Default]),
  Layer.provide(AgentTurnsLive),
  Layer.provideMerge(ClusterWorkflowEngine.layer)
)

/** Workflow simulator sessions: the `WorkflowSimSession` entity, and the service that starts them and sends turns. */
const WorkflowSimulatorLive = Layer.mergeAll(WorkflowSimulator.Default, WorkflowSimSessionLive).pipe(
  Layer.provide([WorkflowCallouts.Default, WorkflowSimSessionRepo.Default]),
  Layer.provide(AgentTurnsLive)
)

export const RuntimeLive = Layer.mergeAll(
  RuntimeSessions.Default,
  PublicSessions.Default,
  RuntimeSessionLive,
  AgentTurnsLive,
  AgentConversationLive,
  ChainRunsLive,
  WorkflowSimulatorLive
).pipe(
  Layer.provide([DraftPrograms.Default, DeploymentPrograms.Default, RuntimeSessionRepo.Default, TurnSender.Default]),
  Layer.provide([AgentRuntime.Default, AgentConversationRepo.Default, TurnDeltas.Default]),
  Layer.provideMerge(ClusterLive)
)
