import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { BundleUnavailable, ModelBundle } from "../../domain/models/Bundle.js"
import { ModelCatalog } from "../../domain/models/Catalog.js"
import {
  DatasetKindMismatch,
  DatasetRejected,
  ModelDataset,
  ModelDatasetCreate,
  ModelDatasetListParams,
  ModelDatasetNotFound
} from "../../domain/models/Dataset.js"
import { EvaluateRequest, NoHeldOutSplit } from "../../domain/models/Evaluation.js"
import { ModelDeploymentId, ModelJobId, TrainedModelId } from "../../domain/models/Ids.js"
import {
  BindingIncompatible,
  BindingNotFound,
  BindingTargetNotFound,
  ModelBinding
} from "../../domain/models/ModelBinding.js"
import {
  ModelDeployment,
  ModelDeploymentCreate,
  ModelDeploymentListParams,
  ModelDeploymentNameTaken,
  ModelDeploymentNotFound,
  ModelDeploymentNotReady
} from "../../domain/models/ModelDeployment.js"
import {
  ClassifierTrainingJob,
  EvaluationJob,
  FineTuneJob,
  ModelJobCreate,
  ModelJobJson,
  ModelJobListParams,
  ModelJobNotCancellable,
  ModelJobNotFound,
  ProviderNotConfigured,
  UnknownBaseModel
} from "../../domain/models/ModelJob.js"
import { WorkspaceModelsStatus } from "../../domain/models/Status.js"
import { TrainedModel, TrainedModelListParams, TrainedModelNotFound } from "../../domain/models/TrainedModel.js"
import { Page } from "../../domain/Pagination.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const modelId = HttpApiSchema.param("id", TrainedModelId)
const jobId = HttpApiSchema.param("id", ModelJobId)
const deploymentId = HttpApiSchema.param("id", ModelDeploymentId)

/** Workspace models (`/v1/workspace-models`): datasets, training and evaluation jobs, models, deployments. */
export class WorkspaceModelsApi extends HttpApiGroup.make("workspaceModels")
  .add(
    HttpApiEndpoint.get("status", "/workspace-models/status")
      .addSuccess(WorkspaceModelsStatus)
      .annotate(OpenApi.Summary, "Queue and capacity: running and queued jobs, workers, local training slots")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.get("catalog", "/workspace-models/catalog")
      .addSuccess(ModelCatalog)
      .annotate(OpenApi.Summary, "The model kinds and base models on offer")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.get("listDatasets", "/workspace-models/datasets")
      .setUrlParams(ModelDatasetListParams)
      .addSuccess(Page(ModelDataset.json))
      .annotate(OpenApi.Summary, "List uploaded datasets with their validation reports")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.post("createDataset", "/workspace-models/datasets")
      .setPayload(ModelDatasetCreate)
      .addSuccess(ModelDataset.json, { status: 201 })
      .addError(DatasetRejected)
      .annotate(OpenApi.Summary, "Upload a JSONL dataset (labelled utterances or conversations)")
      .annotate(
        OpenApi.Description,
        "The JSONL arrives as text in `content` (up to 10 MiB). Each line is validated: rows with errors are "
          + "left out and reported with their line numbers; an upload with no usable row is refused."
      )
      .pipe(requires("model.write"))
  )
  .add(
    HttpApiEndpoint.get("listModels", "/workspace-models/models")
      .setUrlParams(TrainedModelListParams)
      .addSuccess(Page(TrainedModel.json))
      .annotate(OpenApi.Summary, "List trained models with their metrics")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.post("evaluateModel")`/workspace-models/models/${modelId}/evaluate`
      .setPayload(EvaluateRequest)
      .addSuccess(EvaluationJob.json, { status: 202 })
      .addError(TrainedModelNotFound)
      .addError(ModelDatasetNotFound)
      .addError(DatasetKindMismatch)
      .addError(NoHeldOutSplit)
      .annotate(OpenApi.Summary, "Evaluate a model on its held-out split or another dataset")
      .annotate(
        OpenApi.Description,
        "Always answers 202 with an evaluation job: evaluating a fine-tuned language model calls the provider "
          + "once per row and takes minutes, and a large dataset would outlive the handler time-out. The job "
          + "carries the metrics when it succeeds; poll `GET /workspace-models/jobs/{id}`."
      )
      .pipe(requires("model.write"))
  )
  .add(
    HttpApiEndpoint.get("listJobs", "/workspace-models/jobs")
      .setUrlParams(ModelJobListParams)
      .addSuccess(Page(ModelJobJson))
      .annotate(OpenApi.Summary, "List training and evaluation jobs")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.post("createJob", "/workspace-models/jobs")
      .setPayload(ModelJobCreate)
      .addSuccess(ClassifierTrainingJob.json, { status: 202 })
      .addSuccess(FineTuneJob.json, { status: 202 })
      .addError(ModelDatasetNotFound)
      .addError(DatasetKindMismatch)
      .addError(UnknownBaseModel)
      .addError(ProviderNotConfigured)
      .annotate(OpenApi.Summary, "Train a model on a dataset")
      .annotate(
        OpenApi.Description,
        "Queues a durable training job and answers at once with it (`queued`). Classifier kinds train on "
          + "Parley's workers; `llm-fine-tune` runs through the base model's provider."
      )
      .pipe(requires("model.write"))
  )
  .add(
    HttpApiEndpoint.get("getJob")`/workspace-models/jobs/${jobId}`
      .addSuccess(ModelJobJson)
      .addError(ModelJobNotFound)
      .annotate(OpenApi.Summary, "Read a job: status, progress, metrics so far, resulting model")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.post("cancelJob")`/workspace-models/jobs/${jobId}/cancel`
      .addSuccess(ClassifierTrainingJob.json, { status: 202 })
      .addSuccess(FineTuneJob.json, { status: 202 })
      .addSuccess(EvaluationJob.json, { status: 202 })
      .addError(ModelJobNotFound)
      .addError(ModelJobNotCancellable)
      .annotate(OpenApi.Summary, "Cancel a queued or running job")
      .annotate(
        OpenApi.Description,
        "Answers 202 with the job: a queued job is `cancelled` at once; a running one stops at its next "
          + "checkpoint (a provider fine-tune when the provider confirms)."
      )
      .pipe(requires("model.write"))
  )
  .add(
    HttpApiEndpoint.get("listDeployments", "/workspace-models/deployments")
      .setUrlParams(ModelDeploymentListParams)
      .addSuccess(Page(ModelDeployment.json))
      .annotate(OpenApi.Summary, "List model deployments and their attachments")
      .pipe(requires("model.read"))
  )
  .add(
    HttpApiEndpoint.post("createDeployment", "/workspace-models/deployments")
      .setPayload(ModelDeploymentCreate)
      .addSuccess(ModelDeployment.json, { status: 201 })
      .addError(TrainedModelNotFound)
      .addError(ModelDeploymentNameTaken)
      .annotate(OpenApi.Summary, "Serve a trained model")
      .pipe(requires("model.deploy"))
  )
  .add(
    HttpApiEndpoint.post("attachDeployment")`/workspace-models/deployments/${deploymentId}/attach`
      .setPayload(ModelBinding)
      .addSuccess(ModelDeployment.json)
      .addError(ModelDeploymentNotFound)
      .addError(BindingTargetNotFound)
      .addError(BindingIncompatible)
      .addError(ModelDeploymentNotReady)
      .annotate(OpenApi.Summary, "Attach a deployment to an Assistant or an AI agent")
      .annotate(
        OpenApi.Description,
        "Binds the deployment to an Assistant as its intent router, or to an AI agent as its guardrail "
          + "classifier or router. It replaces whatever held that role there; attaching again is a no-op."
      )
      .pipe(requires("model.deploy"))
  )
  .add(
    HttpApiEndpoint.post("detachDeployment")`/workspace-models/deployments/${deploymentId}/detach`
      .setPayload(ModelBinding)
      .addSuccess(ModelDeployment.json)
      .addError(ModelDeploymentNotFound)
      .addError(BindingNotFound)
      .annotate(OpenApi.Summary, "Detach a deployment from an Assistant or an AI agent")
      .pipe(requires("model.deploy"))
  )
  .add(
    HttpApiEndpoint.get("downloadBundle")`/workspace-models/deployments/${deploymentId}/bundle`
      .addSuccess(ModelBundle)
      .addError(ModelDeploymentNotFound)
      .addError(BundleUnavailable)
      .annotate(OpenApi.Summary, "Download the deployment's model as a zip (weights and manifest)")
      .annotate(
        OpenApi.Description,
        "A zip (`Content-Disposition: attachment`) of `manifest.json` (model, kind, labels, hyper-parameters, "
          + "metrics, dataset digest and a SHA-256 per file), `labels.json` and the weights under `weights/`. "
          + "Only local models have one: providers keep fine-tuned weights."
      )
      .pipe(requires("model.deploy"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Workspace models")
  .annotate(
    OpenApi.Description,
    "Datasets, training jobs (local classifiers or provider fine-tunes), trained models with metrics, "
      + "evaluation, and deployments attached to Assistants and AI agents."
  )
{}
