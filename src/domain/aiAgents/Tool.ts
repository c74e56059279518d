import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { FieldProblem } from "../FieldProblem.js"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { ToolDescription, ToolName } from "../workspace/HttpToolDefinition.js"
import { AiAgentId, AiAgentToolId } from "./Ids.js"
import { AiAgentToolConfig, AiAgentToolKind } from "./ToolConfig.js"

/**
 * A tool of an AI agent: the name and description the model sees, and what
 * it runs (`config`: an inline HTTP request, a workspace tool, or a
 * built-in). Tools are part of the draft: a write bumps the agent's revision
 * and a published version snapshots them.
 */
export class AiAgentTool extends Model.Class<AiAgentTool>("AiAgentTool")({
  id: Model.Generated(AiAgentToolId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** The name the model calls the tool by; unique per agent. */
  name: ToolName,
  /**
   * What the model reads to decide when to call the tool. Null takes the
   * workspace tool's or the built-in's own description; an `http` tool needs one.
   */
  description: Schema.optionalWith(Schema.NullOr(ToolDescription), { default: () => null }),
  config: AiAgentToolConfig,
  /** A disabled tool stays in the draft but is not offered to the model. */
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new tool; unknown fields are refused. */
export const AiAgentToolCreate = AiAgentTool.jsonCreate.annotations({
  identifier: "AiAgentToolCreate",
  parseOptions: { onExcessProperty: "error" }
})

const toolPatchFields = {
  name: Schema.optional(ToolName),
  description: Schema.optional(Schema.NullOr(ToolDescription)),
  /** Replaces the whole configuration (the kind may change). */
  config: Schema.optional(AiAgentToolConfig),
  enabled: Schema.optional(Schema.Boolean)
}

/** A partial update of a tool: each field given replaces the stored one; unknown fields are refused. */
export const AiAgentToolPatch = Schema.Struct(toolPatchFields).annotations({
  identifier: "AiAgentToolPatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the tool named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentToolPatchById = Schema.Struct({ id: AiAgentToolId, ...toolPatchFields }).annotations({
  identifier: "AiAgentToolPatchById",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the tool list: a page (by name), optionally of one kind or only enabled or disabled tools. */
export const AiAgentToolListParams = Schema.Struct({
  ...ListParams.fields,
  kind: Schema.optional(AiAgentToolKind),
  enabled: Schema.optional(Schema.BooleanFromString)
})

/** No tool with this id exists on the agent. */
export class AiAgentToolNotFound extends Schema.TaggedError<AiAgentToolNotFound>()(
  "AiAgentToolNotFound",
  { toolId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No tool with this id on the agent" })
) {}

/** Another tool of the agent already has this name. */
export class AiAgentToolNameTaken extends Schema.TaggedError<AiAgentToolNameTaken>()(
  "AiAgentToolNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another tool of the agent has this name" })
) {}

/**
 * The tool breaks a rule that spans fields: an `http` tool without a
 * description, a body on a GET or DELETE, a placeholder naming a field the
 * input schema does not declare, a workspace tool or knowledge document that
 * does not exist, `fixedInput` naming a property the input does not have.
 */
export class AiAgentToolInvalid extends Schema.TaggedError<AiAgentToolInvalid>()(
  "AiAgentToolInvalid",
  {
    message: Schema.String,
    problems: Schema.Array(FieldProblem)
  },
  HttpApiSchema.annotations({ status: 400, description: "The tool breaks a rule that spans fields" })
) {}
