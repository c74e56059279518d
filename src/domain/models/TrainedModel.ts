import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { LlmModelName } from "../settings/LlmConnection.js"
import { FineTuningProvider } from "./Catalog.js"
import { BaseModelRef, Count, ModelDatasetId, ModelJobId, ModelLabel, TrainedModelId } from "./Ids.js"
import { ModelMetrics } from "./Metrics.js"
import { ModelKind } from "./ModelKind.js"

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/**
 * A model a training job produced, immutable: its kind, what it was trained
 * from, its labels (classifiers) and its held-out metrics. Only jobs create one.
 */
export class TrainedModel extends Model.Class<TrainedModel>("TrainedModel")({
  id: Model.Generated(TrainedModelId),
  workspaceId: serverSet(WorkspaceId),
  name: serverSet(Name),
  kind: serverSet(ModelKind),
  baseModel: serverSet(BaseModelRef),
  jobId: serverSet(ModelJobId),
  datasetId: serverSet(ModelDatasetId),
  /** The classes a classifier predicts; empty for fine-tuned language models. */
  labels: serverSet(Schema.Array(ModelLabel).pipe(Schema.maxItems(1000))),
  /** The training job's held-out metrics; `null` when it held nothing out. */
  metrics: serverSet(Schema.NullOr(ModelMetrics)),
  /** For fine-tunes: the provider and the model name to put in agent model settings (`ft:gpt-4o-mini-…:acme:support:abc123`). */
  provider: serverSet(Schema.NullOr(FineTuningProvider)),
  providerModelId: serverSet(Schema.NullOr(LlmModelName)),
  /** Size of the weights for local models; `null` for provider-hosted ones. */
  sizeBytes: serverSet(Schema.NullOr(Count)),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The query of the model list: a page, optionally one kind. */
export const TrainedModelListParams = Schema.Struct({
  ...ListParams.fields,
  kind: Schema.optional(ModelKind)
})

/** No trained model with this id exists in the current workspace. */
export class TrainedModelNotFound extends Schema.TaggedError<TrainedModelNotFound>()(
  "TrainedModelNotFound",
  { modelId: TrainedModelId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}
