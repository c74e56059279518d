import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { ModelDeploymentId, TrainedModelId } from "./Ids.js"
import { ModelAttachment } from "./ModelBinding.js"
import { ModelKind } from "./ModelKind.js"

/**
 * `provisioning` while weights load on the runners (or the provider model is
 * checked), then `ready`, or `failed` with an error.
 */
export const ModelDeploymentStatus = Schema.Literal("provisioning", "ready", "failed").annotations({
  identifier: "ModelDeploymentStatus"
})
export type ModelDeploymentStatus = typeof ModelDeploymentStatus.Type

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/** A trained model being served, and where it is attached. */
export class ModelDeployment extends Model.Class<ModelDeployment>("ModelDeployment")({
  id: Model.Generated(ModelDeploymentId),
  workspaceId: serverSet(WorkspaceId),
  modelId: TrainedModelId,
  name: Name,
  /** The served model's kind. */
  kind: serverSet(ModelKind),
  status: serverSet(ModelDeploymentStatus),
  error: serverSet(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
  /** Whether `GET /bundle` can produce an artefact: local models only (providers keep fine-tuned weights). */
  bundleAvailable: serverSet(Schema.Boolean),
  attachments: serverSet(Schema.Array(ModelAttachment).pipe(Schema.maxItems(1000))),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** A request to serve a model: its id and a name; unknown fields are refused. */
export const ModelDeploymentCreate = ModelDeployment.jsonCreate.annotations({
  identifier: "ModelDeploymentCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the deployment list: a page, optionally filtered. */
export const ModelDeploymentListParams = Schema.Struct({
  ...ListParams.fields,
  modelId: Schema.optional(TrainedModelId),
  status: Schema.optional(ModelDeploymentStatus)
})

/** No model deployment with this id exists in the current workspace. */
export class ModelDeploymentNotFound extends Schema.TaggedError<ModelDeploymentNotFound>()(
  "ModelDeploymentNotFound",
  { deploymentId: ModelDeploymentId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another deployment of the workspace already has this name. */
export class ModelDeploymentNameTaken extends Schema.TaggedError<ModelDeploymentNameTaken>()(
  "ModelDeploymentNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The deployment is not `ready`, so it cannot be attached yet (or has failed). */
export class ModelDeploymentNotReady extends Schema.TaggedError<ModelDeploymentNotReady>()(
  "ModelDeploymentNotReady",
  { deploymentId: ModelDeploymentId, status: ModelDeploymentStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
