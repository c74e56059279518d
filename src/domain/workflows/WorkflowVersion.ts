import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { Revision } from "../Revision.js"
import { WorkflowId, WorkflowVersionNumber } from "./Ids.js"
import { WorkflowGraph } from "./WorkflowGraph.js"

const Note = Schema.String.pipe(Schema.maxLength(1000))

/**
 * How a version came to be: `published` (by publish, validated; the only kind a
 * workflow's live version can be) or `saved-draft` (the draft as it was, kept by
 * a restore that overwrote a graph no version held, so nothing is ever lost; it
 * was never validated and is never made live, but can be restored like any other).
 */
export const WorkflowVersionKind = Schema.Literal("published", "saved-draft").annotations({
  identifier: "WorkflowVersionKind"
})
export type WorkflowVersionKind = typeof WorkflowVersionKind.Type

/** An immutable snapshot of a workflow's draft graph, numbered from 1: made by publish, or saved by a restore. */
export class WorkflowVersion extends Model.Class<WorkflowVersion>("WorkflowVersion")({
  workflowId: WorkflowId,
  version: WorkflowVersionNumber,
  kind: WorkflowVersionKind,
  graph: WorkflowGraph,
  /** The draft revision this version snapshots. */
  revision: Revision,
  /** The publisher's release note; for a saved draft, which revision it was and which restore saved it. */
  note: Note,
  /** Who published it (or whose restore saved the draft): a member or an API token. */
  publishedBy: Actor,
  /** When it was published, or saved. */
  publishedAt: Model.DateTimeInsertFromDate
}) {}

/** The body of `POST /workflows/{id}/publish` (`{}` for none); unknown fields are refused. */
export const WorkflowPublishRequest = Schema.Struct({
  note: Schema.optionalWith(Note, { default: () => "" })
}).annotations({ identifier: "WorkflowPublishRequest", parseOptions: { onExcessProperty: "error" } })

/** The workflow has no version with this number. */
export class WorkflowVersionNotFound extends Schema.TaggedError<WorkflowVersionNotFound>()(
  "WorkflowVersionNotFound",
  { workflowId: WorkflowId, version: WorkflowVersionNumber, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}
