import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { FieldProblem } from "../FieldProblem.js"
import { WorkspaceId } from "../identity/Ids.js"
import { JsonValue } from "../Json.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"
import { TurnVariables } from "./AgentTurn.js"
import { EvalExpectation } from "./EvalExpectation.js"
import { AiAgentEvalId, AiAgentId, EndUserId } from "./Ids.js"
import { PlaygroundMessage } from "./Playground.js"

/**
 * The conversation a case replays, as a playground transcript: up to 100
 * messages, the last one the user's. Earlier assistant messages are history
 * as written; the agent answers the last user message and that turn is judged.
 */
export const EvalConversation = Schema.Array(PlaygroundMessage).pipe(
  Schema.minItems(1),
  Schema.maxItems(100),
  Schema.filter((messages) => messages.at(-1)?.role === "user" || "the last message must be the user's"),
  Schema.annotations({ identifier: "EvalConversation" })
)

/** A tag to group and filter cases (`refunds`, `smoke`): 1 to 32 characters of a-z, 0-9, '_' and '-'. */
export const EvalTag = Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,31}$/))

/** A canned answer for a tool: during the case the tool is not run and the model receives `output`. */
export const EvalToolMock = Schema.Struct({
  tool: ToolName,
  output: JsonValue
}).annotations({ identifier: "EvalToolMock" })

/** A case's weight in its run's score: more than 0, at most 100. */
export const EvalWeight = Schema.Number.pipe(Schema.greaterThan(0), Schema.lessThanOrEqualTo(100))

const Expectations = Schema.Array(EvalExpectation).pipe(Schema.minItems(1), Schema.maxItems(20))
const Tags = Schema.Array(EvalTag).pipe(
  Schema.maxItems(20),
  Schema.filter((tags) => new Set(tags).size === tags.length || "a tag is listed twice")
)
const ToolMocks = Schema.Array(EvalToolMock).pipe(
  Schema.maxItems(20),
  Schema.filter((mocks) => new Set(mocks.map((mock) => mock.tool)).size === mocks.length || "a tool is mocked twice")
)

/**
 * An eval case of an AI agent: a conversation, what the reply to its last
 * user message must satisfy, and the case's weight and tags. A case passes
 * when every expectation passes; its score is the mean of theirs. Evals are
 * not part of the draft: writes do not bump the agent's revision.
 */
export class AiAgentEval extends Model.Class<AiAgentEval>("AiAgentEval")({
  id: Model.Generated(AiAgentEvalId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** Unique per agent. */
  name: Name,
  description: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(2000)), { default: () => "" }),
  conversation: EvalConversation,
  expectations: Expectations,
  /** Values for the instructions' `{{name}}` placeholders, as a turn's variables. */
  variables: Schema.optionalWith(TurnVariables, { default: () => ({}) }),
  /** The end user the case runs as (scoping end-user memory); null for none. */
  endUserId: Schema.optionalWith(Schema.NullOr(EndUserId), { default: () => null }),
  /** Tools answered from the case instead of run; the others run for real. */
  toolMocks: Schema.optionalWith(ToolMocks, { default: () => [] }),
  weight: Schema.optionalWith(EvalWeight, { default: () => 1 }),
  tags: Schema.optionalWith(Tags, { default: () => [] }),
  /** A disabled case is left out of suite runs and publish gates; it can still be run alone. */
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new eval case; unknown fields are refused. */
export const AiAgentEvalCreate = AiAgentEval.jsonCreate.annotations({
  identifier: "AiAgentEvalCreate",
  parseOptions: { onExcessProperty: "error" }
})

const evalPatchFields = {
  name: Schema.optional(Name),
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  conversation: Schema.optional(EvalConversation),
  /** Replaces the whole list. */
  expectations: Schema.optional(Expectations),
  variables: Schema.optional(TurnVariables),
  endUserId: Schema.optional(Schema.NullOr(EndUserId)),
  toolMocks: Schema.optional(ToolMocks),
  weight: Schema.optional(EvalWeight),
  tags: Schema.optional(Tags),
  enabled: Schema.optional(Schema.Boolean)
}

/** A partial update of an eval case: each field given replaces the stored one; unknown fields are refused. */
export const AiAgentEvalPatch = Schema.Struct(evalPatchFields).annotations({
  identifier: "AiAgentEvalPatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the case named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentEvalPatchById = Schema.Struct({ id: AiAgentEvalId, ...evalPatchFields }).annotations({
  identifier: "AiAgentEvalPatchById",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the case list: a page (by name), optionally only cases with a tag. */
export const AiAgentEvalListParams = Schema.Struct({
  ...ListParams.fields,
  tag: Schema.optional(EvalTag),
  enabled: Schema.optional(Schema.BooleanFromString)
})

/** No eval case with this id exists on the agent. */
export class AiAgentEvalNotFound extends Schema.TaggedError<AiAgentEvalNotFound>()(
  "AiAgentEvalNotFound",
  { evalId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No eval case with this id on the agent" })
) {}

/** Another eval case of the agent already has this name. */
export class AiAgentEvalNameTaken extends Schema.TaggedError<AiAgentEvalNameTaken>()(
  "AiAgentEvalNameTaken",
  { name: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another eval case of the agent has this name" })
) {}

/**
 * The case breaks a rule the schema cannot check: a regex that does not
 * compile, a JSON schema that is not valid. (Tool names are not checked: a
 * version without the tool simply fails the expectation.)
 */
export class AiAgentEvalInvalid extends Schema.TaggedError<AiAgentEvalInvalid>()(
  "AiAgentEvalInvalid",
  {
    message: Schema.String,
    problems: Schema.Array(FieldProblem)
  },
  HttpApiSchema.annotations({ status: 400, description: "The eval case breaks a rule that spans fields" })
) {}
