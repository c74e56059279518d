import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { Sha256Hex } from "../Sha256Hex.js"
import { Count, ModelDatasetId, ModelLabel } from "./Ids.js"
import { DatasetKind } from "./ModelKind.js"

/** The largest dataset upload: 10 MiB of JSONL, like imports and knowledge uploads. */
export const MAX_DATASET_BYTES = 10 * 1024 * 1024

/** Row errors listed in a report; the rest are only counted. */
export const MAX_REPORTED_ROW_ERRORS = 100

/**
 * The JSONL text of a dataset: one JSON object per line (`LabelledUtteranceRow`
 * or `ConversationRow`, by the dataset's kind); blank lines are skipped.
 */
export const DatasetContent = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(MAX_DATASET_BYTES),
  Schema.annotations({ identifier: "DatasetContent", description: "JSONL: one JSON object per line" })
)

/** A line of an upload that could not be used, and why. */
export const DatasetRowError = Schema.Struct({
  /** 1-based line number in the uploaded content. */
  line: Schema.Number.pipe(Schema.int(), Schema.positive()),
  message: Schema.String.pipe(Schema.maxLength(500)),
  /** The offending field, e.g. `label` or `messages[2].role`, when known. */
  field: Schema.optional(Schema.String)
}).annotations({ identifier: "DatasetRowError" })

/** How many usable rows carry a label. */
export const LabelCount = Schema.Struct({ label: ModelLabel, rows: Count }).annotations({ identifier: "LabelCount" })

/**
 * The validation report of an upload: rows read and kept, the label
 * distribution (labelled utterances), a token estimate (conversations), the
 * first errors with their line numbers, and advice that does not block use.
 */
export const DatasetReport = Schema.Struct({
  rows: Count,
  validRows: Count,
  labels: Schema.Array(LabelCount).pipe(Schema.maxItems(1000)),
  estimatedTokens: Schema.NullOr(Count),
  errorCount: Count,
  errors: Schema.Array(DatasetRowError).pipe(Schema.maxItems(MAX_REPORTED_ROW_ERRORS)),
  /** E.g. "label `refund` has 3 rows; 10 or more are advised". */
  warnings: Schema.Array(Schema.String).pipe(Schema.maxItems(100))
}).annotations({ identifier: "DatasetReport" })
export type DatasetReport = typeof DatasetReport.Type

/**
 * An uploaded dataset. Its content is write-only: stored on upload, never sent
 * back (it may be 10 MiB); the report describes it. Rows with errors are left
 * out and listed; an upload with no usable row is refused (`DatasetRejected`).
 */
export class ModelDataset extends Model.Class<ModelDataset>("ModelDataset")({
  id: Model.Generated(ModelDatasetId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  name: Name,
  kind: DatasetKind,
  description: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(2000)), { default: () => "" }),
  content: Model.FieldOnly("jsonCreate", "insert")(DatasetContent),
  /** SHA-256 of the content (hex): identifies the exact data a model was trained on. */
  sha256: Model.FieldExcept("jsonCreate", "jsonUpdate")(Sha256Hex),
  sizeBytes: Model.FieldExcept("jsonCreate", "jsonUpdate")(Count),
  report: Model.FieldExcept("jsonCreate", "jsonUpdate")(DatasetReport),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** An upload: name, kind and JSONL content; unknown fields are refused. */
export const ModelDatasetCreate = ModelDataset.jsonCreate.annotations({
  identifier: "ModelDatasetCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the dataset list: a page, optionally one kind. */
export const ModelDatasetListParams = Schema.Struct({
  ...ListParams.fields,
  kind: Schema.optional(DatasetKind)
})

/** No dataset with this id exists in the current workspace. */
export class ModelDatasetNotFound extends Schema.TaggedError<ModelDatasetNotFound>()(
  "ModelDatasetNotFound",
  { datasetId: ModelDatasetId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The upload has no usable row (or a classifier dataset has fewer than two labels); nothing was stored. */
export class DatasetRejected extends Schema.TaggedError<DatasetRejected>()(
  "DatasetRejected",
  { report: DatasetReport, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** The dataset's kind does not fit the model kind (classifiers need labelled utterances, fine-tunes conversations). */
export class DatasetKindMismatch extends Schema.TaggedError<DatasetKindMismatch>()(
  "DatasetKindMismatch",
  { datasetId: ModelDatasetId, datasetKind: DatasetKind, requiredKind: DatasetKind, message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
