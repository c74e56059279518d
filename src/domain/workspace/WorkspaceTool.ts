import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { FieldProblem } from "../FieldProblem.js"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import {
  AllowedDomain,
  HttpMethod,
  httpToolDefinitionFields,
  MaxResponseBytes,
  ToolDescription,
  ToolHeaders,
  ToolInputSchema,
  ToolName,
  ToolQuery,
  ToolRequestBody,
  ToolTimeoutSeconds,
  UrlTemplate
} from "./HttpToolDefinition.js"
import { WorkspaceToolId } from "./Ids.js"
import { ResourceRef } from "./ResourceRef.js"

/**
 * A shared HTTP tool of a workspace: AI agents, flow `http` nodes and
 * workflow `http` nodes reference it by id, so one definition serves them all.
 */
export class WorkspaceTool extends Model.Class<WorkspaceTool>("WorkspaceTool")({
  id: Model.Generated(WorkspaceToolId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  /** Unique per workspace. */
  name: ToolName,
  description: ToolDescription,
  ...httpToolDefinitionFields,
  createdBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Actor),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new workspace tool; unknown fields are refused. */
export const WorkspaceToolCreate = WorkspaceTool.jsonCreate.annotations({
  identifier: "WorkspaceToolCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of a workspace tool: each field given replaces the stored one; unknown fields are refused. */
export const WorkspaceToolPatch = Schema.Struct({
  name: Schema.optional(ToolName),
  description: Schema.optional(ToolDescription),
  inputSchema: Schema.optional(ToolInputSchema),
  method: Schema.optional(HttpMethod),
  url: Schema.optional(UrlTemplate),
  headers: Schema.optional(ToolHeaders),
  query: Schema.optional(ToolQuery),
  body: Schema.optional(Schema.NullOr(ToolRequestBody)),
  timeoutSeconds: Schema.optional(ToolTimeoutSeconds),
  maxResponseBytes: Schema.optional(MaxResponseBytes),
  allowedDomains: Schema.optional(Schema.Array(AllowedDomain).pipe(Schema.maxItems(20)))
}).annotations({ identifier: "WorkspaceToolPatch", parseOptions: { onExcessProperty: "error" } })

/** The query of the tool list: pagination and an optional name filter. */
export const WorkspaceToolListParams = Schema.Struct({
  ...ListParams.fields,
  /** Only tools whose name contains this text (ignoring case). */
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)))
})

/** No workspace tool with this id exists in the current workspace. */
export class WorkspaceToolNotFound extends Schema.TaggedError<WorkspaceToolNotFound>()(
  "WorkspaceToolNotFound",
  { toolId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404 })
) {}

/** Another tool of the workspace already has this name. */
export class WorkspaceToolNameTaken extends Schema.TaggedError<WorkspaceToolNameTaken>()(
  "WorkspaceToolNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/**
 * The definition breaks a rule that spans fields: a GET or DELETE tool with a
 * body, or a placeholder naming a field the input schema does not declare.
 */
export class WorkspaceToolInvalid extends Schema.TaggedError<WorkspaceToolInvalid>()(
  "WorkspaceToolInvalid",
  {
    message: Schema.String,
    problems: Schema.Array(FieldProblem)
  },
  HttpApiSchema.annotations({ status: 400 })
) {}

/** Agents, flows or workflows still use the tool; `?force=true` deletes it anyway. */
export class WorkspaceToolInUse extends Schema.TaggedError<WorkspaceToolInUse>()(
  "WorkspaceToolInUse",
  { toolId: Schema.String, usedBy: Schema.Array(ResourceRef), message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
