import { Schema } from "effect"
import { Count } from "./Ids.js"

/** Jobs waiting and running in this workspace. */
export const ModelQueueStatus = Schema.Struct({
  queued: Count,
  running: Count,
  /** When the oldest queued job was submitted; `null` when none waits. */
  oldestQueuedAt: Schema.NullOr(Schema.DateTimeUtc)
}).annotations({ identifier: "ModelQueueStatus" })

/**
 * The cluster's training capacity: workers are runner nodes that take model
 * jobs; each has a number of local training slots (concurrent classifier
 * trainings). Provider fine-tunes take no slot; they wait at the provider.
 */
export const ModelCapacityStatus = Schema.Struct({
  workers: Count,
  localTrainingSlots: Count,
  localTrainingSlotsInUse: Count,
  providerJobsRunning: Count
}).annotations({ identifier: "ModelCapacityStatus" })

/** The answer of `GET /workspace-models/status`: the queue, the capacity, and what is being served. */
export const WorkspaceModelsStatus = Schema.Struct({
  queue: ModelQueueStatus,
  capacity: ModelCapacityStatus,
  deployments: Schema.Struct({ provisioning: Count, ready: Count, failed: Count })
}).annotations({ identifier: "WorkspaceModelsStatus" })
export type WorkspaceModelsStatus = typeof WorkspaceModelsStatus.Type
