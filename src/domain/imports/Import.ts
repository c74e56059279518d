/**
 * The history of imports into Assistants (`GET /imports`). An import maps
 * what it can and reports the rest as warnings; it fails only when nothing
 * usable can be read, and a failed import is recorded too.
 */
import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { AssistantId } from "../assistants/Assistant.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"

/** One import. */
export const ImportId = Schema.UUID.pipe(Schema.brand("ImportId"))
export type ImportId = typeof ImportId.Type

/** What an import reads: a draw.io diagram, a Mermaid flowchart, a Rasa project, a Dialogflow ES agent, a Parley document. */
export const ImportFormat = Schema.Literal("drawio", "mermaid", "rasa", "dialogflow", "parley").annotations({
  identifier: "ImportFormat"
})
export type ImportFormat = typeof ImportFormat.Type

/** An import either produced a draft (perhaps with warnings) or read nothing usable. */
export const ImportStatus = Schema.Literal("succeeded", "failed").annotations({ identifier: "ImportStatus" })
export type ImportStatus = typeof ImportStatus.Type

/** Where in the source a warning points: a file, a line and column, a diagram page or element id. */
export const SourceLocation = Schema.Struct({
  file: Schema.optional(Schema.String),
  line: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())),
  column: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())),
  page: Schema.optional(Schema.String),
  elementId: Schema.optional(Schema.String)
}).annotations({ identifier: "ImportSourceLocation" })

/** Why part of a source was not mapped as it stood. */
export const ImportWarningCode = Schema.Literal(
  "unreadable",
  "unsupported-element",
  "unsupported-feature",
  "unknown-node-type",
  "unlabelled-edge",
  "dangling-edge",
  "duplicate-id",
  "duplicate-intent",
  "missing-start",
  "multiple-starts",
  "invalid-expression",
  "unresolved-reference",
  "intent-without-utterances",
  "layout-generated",
  "truncated",
  "unstorable-text"
).annotations({ identifier: "ImportWarningCode" })

/** One thing an import could not map as it stood, and where it is in the source. */
export const ImportWarning = Schema.Struct({
  code: ImportWarningCode,
  message: Schema.String,
  location: Schema.optional(SourceLocation)
}).annotations({ identifier: "ImportWarning" })
export type ImportWarning = typeof ImportWarning.Type

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** What an import mapped, and its warnings (at most 1,000; `truncated` says when more were dropped). */
export const ImportReport = Schema.Struct({
  mapped: Schema.Struct({
    nodes: Count,
    edges: Count,
    subflows: Count,
    intents: Count,
    utterances: Count
  }),
  skipped: Schema.Struct({ elements: Count }),
  warnings: Schema.Array(ImportWarning).pipe(Schema.maxItems(1000)),
  truncated: Schema.Boolean
}).annotations({ identifier: "ImportReport" })
export type ImportReport = typeof ImportReport.Type

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/** An import: what was read, into which Assistant, with what result. */
export class Import extends Model.Class<Import>("Import")({
  id: Model.Generated(ImportId),
  workspaceId: serverSet(WorkspaceId),
  format: serverSet(ImportFormat),
  status: serverSet(ImportStatus),
  /** The request's target kind: a new Assistant, or an existing one's draft replaced. */
  target: serverSet(Schema.Literal("new", "replace")),
  /** The Assistant written; `null` when a failed import named no existing one. */
  agentId: serverSet(Schema.NullOr(AssistantId)),
  /** The draft revision the import produced; `null` when it failed. */
  revision: serverSet(Schema.NullOr(Revision)),
  report: serverSet(ImportReport),
  createdBy: serverSet(Actor),
  createdAt: Model.DateTimeInsertFromDate
}) {}

/** The query of `GET /imports`: a page, optionally filtered. */
export const ImportListParams = Schema.Struct({
  ...ListParams.fields,
  agentId: Schema.optional(AssistantId),
  format: Schema.optional(ImportFormat),
  status: Schema.optional(ImportStatus)
})

/** No import with this id exists in the current workspace. */
export class ImportNotFound extends Schema.TaggedError<ImportNotFound>()(
  "ImportNotFound",
  { importId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/**
 * Nothing usable could be read from the source (not XML, no diagram, no
 * recognisable Rasa or Dialogflow file...). The failed import is recorded as
 * `importId`; `problems` says what was wrong, where.
 */
export class ImportUnreadable extends Schema.TaggedError<ImportUnreadable>()(
  "ImportUnreadable",
  { importId: ImportId, format: ImportFormat, problems: Schema.Array(ImportWarning), message: Schema.String },
  HttpApiSchema.annotations({ status: 400 })
) {}
