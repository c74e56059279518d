import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema, Struct } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { Slug } from "../Slug.js"
import { WorkflowId, WorkflowVersionNumber } from "./Ids.js"
import { emptyGraph, WorkflowGraph } from "./WorkflowGraph.js"

/** `draft` until a version has been published, `live` once one has (edits then wait for the next publish). */
export const WorkflowStatus = Schema.Literal("draft", "live")
export type WorkflowStatus = typeof WorkflowStatus.Type

const Description = Schema.String.pipe(Schema.maxLength(2000))

/** A graph workflow: one draft graph, edited with revisions, released as immutable numbered versions. */
export class Workflow extends Model.Class<Workflow>("Workflow")({
  id: Model.Generated(WorkflowId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  name: Name,
  description: Schema.optionalWith(Description, { default: () => "" }),
  /** The draft graph; `PUT /workflows/{id}/graph` replaces it, publish snapshots it. */
  graph: Schema.optionalWith(WorkflowGraph, { default: () => emptyGraph }),
  /** The draft's revision (graph, name and description); a version records the one it snapshots. */
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  status: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkflowStatus),
  /** The version that chains and triggers run, or null before the first publish. */
  liveVersion: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(WorkflowVersionNumber)),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** A workflow in a list: everything but the graph, which can be large, and the graph's size instead. */
export const WorkflowSummary = Schema.Struct({
  ...Struct.omit(Workflow.json.fields, "graph"),
  nodeCount: Schema.Number.pipe(Schema.int(), Schema.nonNegative())
}).annotations({ identifier: "WorkflowSummary" })

/** The fields of a new workflow (the graph is optional: empty by default); unknown fields are refused. */
export const WorkflowCreate = Workflow.jsonCreate.annotations({
  identifier: "WorkflowCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of a workflow's name or description (the graph has its own route); unknown fields are refused. */
export const WorkflowPatch = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Description)
}).annotations({ identifier: "WorkflowPatch", parseOptions: { onExcessProperty: "error" } })

/** The query of `GET /workflows`: a page, optionally only drafts or live ones, or names containing `q`. */
export const WorkflowListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(WorkflowStatus),
  q: Schema.optional(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120)))
})

/** No workflow with this id exists in the current workspace. */
export class WorkflowNotFound extends Schema.TaggedError<WorkflowNotFound>()(
  "WorkflowNotFound",
  { workflowId: WorkflowId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The workflow cannot be deleted while chains run it; they are listed. */
export class WorkflowInUse extends Schema.TaggedError<WorkflowInUse>()(
  "WorkflowInUse",
  { workflowId: WorkflowId, chains: Schema.Array(Slug), message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
