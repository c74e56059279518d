/**
 * The runtime of a node: its place in the cluster, the `RuntimeSession`
 * entity it hosts for its shards, and the services the HTTP handlers call.
 * It needs the Assistants service (drafts) and the database.
 */
import { Layer } from "effect"
import { ClusterLive } from "../../actors/Cluster.js"
import { RuntimeSessionLive } from "../../actors/RuntimeSessionLive.js"
import { RuntimeSessionRepo } from "../../persistence/runtime/RuntimeSessionRepo.js"
import { DeploymentPrograms } from "./DeploymentPrograms.js"
import { DraftPrograms } from "./DraftPrograms.js"
import { PublicSessions } from "./PublicSessions.js"
import { RuntimeSessions } from "./RuntimeSessions.js"
import { TurnSender } from "./TurnSender.js"

export const RuntimeLive = Layer.mergeAll(
  RuntimeSessions.Default,
  PublicSessions.Default,
  RuntimeSessionLive
).pipe(
  Layer.provide([DraftPrograms.Default, DeploymentPrograms.Default, RuntimeSessionRepo.Default, TurnSender.Default]),
  Layer.provideMerge(ClusterLive)
)
