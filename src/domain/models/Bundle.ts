import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Name } from "../Name.js"
import { Sha256Hex } from "../Sha256Hex.js"
import { ClassifierHyperparameters } from "./Hyperparameters.js"
import { BaseModelRef, Count, ModelDatasetId, ModelDeploymentId, ModelLabel, TrainedModelId } from "./Ids.js"
import { ModelMetrics } from "./Metrics.js"
import { ClassifierKind } from "./ModelKind.js"

/** The media type of a bundle download. */
export const BUNDLE_CONTENT_TYPE = "application/zip"

/** A file of a bundle, with its digest so a reader can check it. */
export const BundleFile = Schema.Struct({
  path: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/)),
  sha256: Sha256Hex,
  sizeBytes: Count
}).annotations({ identifier: "BundleFile" })

/**
 * `manifest.json` at the root of a bundle zip. The zip holds the manifest,
 * `labels.json` (the label list, in output order) and the weights under
 * `weights/` (the trainer's own format, named by `trainer`), each listed in
 * `files` with its SHA-256. With these, `parley` (or any reader of the format)
 * can serve the model without this workspace.
 */
export const BundleManifest = Schema.Struct({
  format: Schema.Literal("parley-model-bundle"),
  formatVersion: Schema.Literal(1),
  model: Schema.Struct({
    id: TrainedModelId,
    name: Name,
    kind: ClassifierKind,
    labels: Schema.Array(ModelLabel),
    hyperparameters: ClassifierHyperparameters,
    metrics: Schema.NullOr(ModelMetrics)
  }),
  /** The local base model that trained it, which also names the weights format. */
  trainer: BaseModelRef,
  deployment: Schema.Struct({ id: ModelDeploymentId, name: Name }),
  dataset: Schema.Struct({ id: ModelDatasetId, sha256: Schema.String, rows: Count }),
  files: Schema.Array(BundleFile),
  createdAt: Schema.DateTimeUtc,
  parleyVersion: Schema.String
}).annotations({ identifier: "BundleManifest" })
export type BundleManifest = typeof BundleManifest.Type

/** The bundle download: a zip of `manifest.json`, `labels.json` and `weights/`. */
export const ModelBundle = HttpApiSchema.Uint8Array({ contentType: BUNDLE_CONTENT_TYPE }).annotations({
  description: "A zip: manifest.json (BundleManifest), labels.json and weights/"
})

/** There is no artefact to download: the model is hosted by its provider, or the deployment is not ready. */
export class BundleUnavailable extends Schema.TaggedError<BundleUnavailable>()(
  "BundleUnavailable",
  { deploymentId: ModelDeploymentId, reason: Schema.Literal("provider-hosted", "not-ready"), message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
