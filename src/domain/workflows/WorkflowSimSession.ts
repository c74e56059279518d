import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { JsonObject } from "../Json.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { Revision } from "../Revision.js"
import { WorkflowId, WorkflowSimSessionId } from "./Ids.js"

/**
 * Where a simulator session stands after its last turn: still `running` (a turn
 * is in progress), `waiting-input` (for a message or a wait's payload), or
 * ended (`completed`, `failed`), after which it takes no more turns.
 */
export const WorkflowSimStatus = Schema.Literal("running", "waiting-input", "completed", "failed")
export type WorkflowSimStatus = typeof WorkflowSimStatus.Type

/**
 * A simulator session: a conversational run of a workflow's draft, as it was at
 * the session's start, held by a `WorkflowSimSession` entity. Listed as history.
 */
export class WorkflowSimSession extends Model.Class<WorkflowSimSession>("WorkflowSimSession")({
  id: Model.Generated(WorkflowSimSessionId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  workflowId: WorkflowId,
  /** The draft revision the session runs (a snapshot taken at start: later edits do not reach it). */
  revision: Revision,
  status: WorkflowSimStatus,
  /** The turns sent after the opening run. */
  turnCount: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  /** The input the session started with. */
  input: JsonObject,
  /** Who started it: a member or an API token. */
  startedBy: Actor,
  startedAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate,
  /** When it completed or failed; null while it can take turns. */
  endedAt: NullableDateTimeField
}) {}

/** The body of a session start: the trigger's input variables (`{}` for none); unknown fields are refused. */
export const WorkflowSimSessionStart = Schema.Struct({
  input: Schema.optionalWith(JsonObject, { default: () => ({}) })
}).annotations({ identifier: "WorkflowSimSessionStart", parseOptions: { onExcessProperty: "error" } })

/** No simulator session with this id exists in the current workspace. */
export class WorkflowSimSessionNotFound extends Schema.TaggedError<WorkflowSimSessionNotFound>()(
  "WorkflowSimSessionNotFound",
  { sessionId: WorkflowSimSessionId, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** The session has completed or failed and takes no more turns; start a new one. */
export class WorkflowSimSessionEnded extends Schema.TaggedError<WorkflowSimSessionEnded>()(
  "WorkflowSimSessionEnded",
  { sessionId: WorkflowSimSessionId, status: WorkflowSimStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
