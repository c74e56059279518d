import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { FineTuningProvider } from "./Catalog.js"
import {
  ClassifierHyperparameters,
  defaultHeldOutSplit,
  FineTuneHyperparameters,
  HeldOutSplit
} from "./Hyperparameters.js"
import { BaseModelRef, Count, ModelDatasetId, ModelJobId, TrainedModelId, UnitInterval } from "./Ids.js"
import { ClassificationMetrics, LanguageModelMetrics, ModelMetrics } from "./Metrics.js"
import { ClassifierKind, LanguageModelKind, ModelKind } from "./ModelKind.js"

/** The life of a job: `queued` → `running` → `succeeded` | `failed` | `cancelled`. */
export const ModelJobStatus = Schema.Literal("queued", "running", "succeeded", "failed", "cancelled").annotations({
  identifier: "ModelJobStatus"
})
export type ModelJobStatus = typeof ModelJobStatus.Type

/** What a job does: train a new model, or measure an existing one. */
export const ModelJobType = Schema.Literal("training", "evaluation").annotations({ identifier: "ModelJobType" })

/** Why a job failed. */
export const ModelJobError = Schema.Struct({
  code: Schema.Literal("invalid-dataset", "provider-rejected", "provider-failed", "resources-exhausted", "internal"),
  message: Schema.String.pipe(Schema.maxLength(2000)),
  /** The provider's own error code, for fine-tunes. */
  providerCode: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ModelJobError" })

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

const jobFields = {
  id: Model.Generated(ModelJobId),
  workspaceId: serverSet(WorkspaceId),
  status: serverSet(ModelJobStatus),
  /** Share of the work done, 0 to 1; 1 once the job has ended. */
  progress: serverSet(UnitInterval),
  error: serverSet(Schema.NullOr(ModelJobError)),
  /** Jobs ahead of this one while it is queued; computed when read. */
  queuePosition: Model.FieldOnly("json")(Schema.NullOr(Count)),
  startedAt: NullableDateTimeField,
  finishedAt: NullableDateTimeField,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}

/** Training a local classifier (intent router, guardrail classifier) on labelled utterances. */
export class ClassifierTrainingJob extends Model.Class<ClassifierTrainingJob>("ClassifierTrainingJob")({
  ...jobFields,
  type: serverSet(Schema.Literal("training")),
  kind: ClassifierKind,
  datasetId: ModelDatasetId,
  /** A local base model of the catalog that offers this kind. */
  baseModel: BaseModelRef,
  /** The name the resulting model gets. */
  modelName: Name,
  hyperparameters: Schema.optionalWith(ClassifierHyperparameters, { default: () => ({}) }),
  split: Schema.optionalWith(HeldOutSplit, { default: () => defaultHeldOutSplit }),
  /** Held-out metrics, once measured. */
  metrics: serverSet(Schema.NullOr(ClassificationMetrics)),
  /** The model this job produced; set when it succeeds. */
  modelId: serverSet(Schema.NullOr(TrainedModelId))
}) {}

/** Fine-tuning a provider's language model on conversations, driven through the provider's API. */
export class FineTuneJob extends Model.Class<FineTuneJob>("FineTuneJob")({
  ...jobFields,
  type: serverSet(Schema.Literal("training")),
  kind: LanguageModelKind,
  datasetId: ModelDatasetId,
  /** A provider base model of the catalog. */
  baseModel: BaseModelRef,
  /** The name the resulting model gets (also sent as the provider's model suffix). */
  modelName: Name,
  hyperparameters: Schema.optionalWith(FineTuneHyperparameters, { default: () => ({}) }),
  /** The validation split, uploaded to the provider as its validation file. */
  split: Schema.optionalWith(HeldOutSplit, { default: () => defaultHeldOutSplit }),
  /** Metrics so far, updated from the provider's events while it runs. */
  metrics: serverSet(Schema.NullOr(LanguageModelMetrics)),
  modelId: serverSet(Schema.NullOr(TrainedModelId)),
  provider: serverSet(FineTuningProvider),
  /** The provider's job id (e.g. `ftjob-…`), once submitted. */
  providerJobId: serverSet(Schema.NullOr(Schema.String))
}) {}

/** Measuring a trained model on its held-out split or on another dataset (`POST /models/{id}/evaluate`). */
export class EvaluationJob extends Model.Class<EvaluationJob>("EvaluationJob")({
  ...jobFields,
  type: serverSet(Schema.Literal("evaluation")),
  kind: serverSet(ModelKind),
  modelId: serverSet(TrainedModelId),
  source: serverSet(Schema.Literal("held-out", "dataset")),
  /** The dataset measured on: the model's training dataset for `held-out`. */
  datasetId: serverSet(ModelDatasetId),
  metrics: serverSet(Schema.NullOr(ModelMetrics))
}) {}

/** A workspace-model job: a durable workflow with progress, by type and kind. */
export const ModelJob = Model.Union(ClassifierTrainingJob, FineTuneJob, EvaluationJob)
export type ModelJob = typeof ModelJob.Type

/** A job as the API shows it: one of the three job classes' JSON forms. */
export const ModelJobJson = Schema.Union(ClassifierTrainingJob.json, FineTuneJob.json, EvaluationJob.json).annotations({
  identifier: "ModelJob"
})

/** A training request, exact per kind (classifier or fine-tune); unknown fields are refused. */
export const ModelJobCreate = Schema.Union(
  ClassifierTrainingJob.jsonCreate,
  FineTuneJob.jsonCreate
).annotations({
  identifier: "ModelJobCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the job list: a page, optionally filtered. */
export const ModelJobListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(ModelJobStatus),
  type: Schema.optional(ModelJobType),
  kind: Schema.optional(ModelKind),
  modelId: Schema.optional(TrainedModelId)
})

/** No job with this id exists in the current workspace. */
export class ModelJobNotFound extends Schema.TaggedError<ModelJobNotFound>()(
  "ModelJobNotFound",
  { jobId: ModelJobId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The job has already ended, so it cannot be cancelled. */
export class ModelJobNotCancellable extends Schema.TaggedError<ModelJobNotCancellable>()(
  "ModelJobNotCancellable",
  { jobId: ModelJobId, status: ModelJobStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The base model is not in the catalog, or does not offer the requested kind. */
export class UnknownBaseModel extends Schema.TaggedError<UnknownBaseModel>()(
  "UnknownBaseModel",
  { kind: ModelKind, baseModel: BaseModelRef, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The base model's provider has no credentials in this workspace (its catalog entry says `available: false`). */
export class ProviderNotConfigured extends Schema.TaggedError<ProviderNotConfigured>()(
  "ProviderNotConfigured",
  { provider: FineTuningProvider, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
