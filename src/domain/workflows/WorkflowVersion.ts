import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { Revision } from "../Revision.js"
import { WorkflowId, WorkflowVersionNumber } from "./Ids.js"
import { WorkflowGraph } from "./WorkflowGraph.js"

const Note = Schema.String.pipe(Schema.maxLength(1000))

/** An immutable snapshot of a workflow's draft graph, created by publish and numbered from 1. */
export class WorkflowVersion extends Model.Class<WorkflowVersion>("WorkflowVersion")({
  workflowId: WorkflowId,
  version: WorkflowVersionNumber,
  graph: WorkflowGraph,
  /** The draft revision this version was published from. */
  revision: Revision,
  /** The publisher's release note. */
  note: Note,
  /** Who published it: a member or an API token. */
  publishedBy: Actor,
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
