import { Schema } from "effect"

/** An uploaded training or evaluation dataset (JSONL) of a workspace. */
export const ModelDatasetId = Schema.UUID.pipe(Schema.brand("ModelDatasetId"))
export type ModelDatasetId = typeof ModelDatasetId.Type

/** A training or evaluation job; runs as a durable workflow. */
export const ModelJobId = Schema.UUID.pipe(Schema.brand("ModelJobId"))
export type ModelJobId = typeof ModelJobId.Type

/** A model produced by a successful training job. */
export const TrainedModelId = Schema.UUID.pipe(Schema.brand("TrainedModelId"))
export type TrainedModelId = typeof TrainedModelId.Type

/** A trained model being served (distinct from an Assistant's `DeploymentId`). */
export const ModelDeploymentId = Schema.UUID.pipe(Schema.brand("ModelDeploymentId"))
export type ModelDeploymentId = typeof ModelDeploymentId.Type

/**
 * A base model as the catalog names it: a local trainer (`parley/intent-linear-v1`)
 * or a provider's fine-tunable model (`gpt-4o-mini-2024-07-18`).
 */
export const BaseModelRef = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/),
  Schema.annotations({ identifier: "BaseModelRef", examples: ["parley/intent-linear-v1" as never] })
)
export type BaseModelRef = typeof BaseModelRef.Type

/** A class a classifier predicts: an intent name, or a guardrail label such as `jailbreak`. */
export const ModelLabel = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,79}$/),
  Schema.annotations({ identifier: "ModelLabel", examples: ["order.status" as never] })
)
export type ModelLabel = typeof ModelLabel.Type

/** A count of rows, tokens or jobs. */
export const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** A score or fraction between 0 and 1. */
export const UnitInterval = Schema.Number.pipe(Schema.between(0, 1))
