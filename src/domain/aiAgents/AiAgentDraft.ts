import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Actor } from "../identity/Actor.js"
import { WorkspaceId } from "../identity/Ids.js"
import { JsonValue } from "../Json.js"
import { Revision } from "../Revision.js"
import { Slug } from "../Slug.js"
import { WorkspaceToolId } from "../workspace/Ids.js"
import { AiAgentDescription, Instructions } from "./AiAgent.js"
import { ProposedTask } from "./DerivedTasks.js"
import { AiAgentDraftId } from "./Ids.js"
import { ModelSettings } from "./ModelSettings.js"
import { BuiltinToolName } from "./ToolConfig.js"

/** The wizard's steps, in order; a draft remembers where its author left off. */
export const WizardStep = Schema.Literal("describe", "tasks", "tools", "instructions", "review").annotations({
  identifier: "WizardStep"
})

/** A tool picked in the wizard: a built-in, or a shared workspace tool. Inline HTTP tools are added once the agent exists. */
export const DraftToolChoice = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("builtin"), name: BuiltinToolName }).annotations({}),
  Schema.Struct({ kind: Schema.Literal("workspace"), workspaceToolId: WorkspaceToolId }).annotations({})
).annotations({ identifier: "DraftToolChoice" })

/** The wizard's other answers (audience, tone, languages…), keyed by question: up to 50, free-form JSON. */
export const DraftAnswers = Schema.Record({
  key: Schema.String.pipe(Schema.pattern(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/)),
  value: JsonValue
}).pipe(
  Schema.filter((answers) => Object.keys(answers).length <= 50 || "at most 50 answers"),
  Schema.annotations({ identifier: "DraftAnswers" })
)

const DraftName = Schema.String.pipe(Schema.maxLength(120))
const DraftTasks = Schema.Array(ProposedTask).pipe(Schema.maxItems(20))
const DraftTools = Schema.Array(DraftToolChoice).pipe(Schema.maxItems(50))

/**
 * Wizard work before an agent exists. Every field may be incomplete; the
 * draft becomes an agent through `POST /ai-agents` with `fromDraft`, which
 * deletes it.
 */
export class AiAgentDraft extends Model.Class<AiAgentDraft>("AiAgentDraft")({
  id: Model.Generated(AiAgentDraftId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  /** Who started it. */
  createdBy: Model.FieldExcept("jsonCreate", "jsonUpdate")(Actor),
  step: Schema.optionalWith(WizardStep, { default: () => "describe" as const }),
  name: Schema.optionalWith(DraftName, { default: () => "" }),
  description: Schema.optionalWith(AiAgentDescription, { default: () => "" }),
  /** The slug the agent will get; checked for uniqueness only when the agent is created. */
  proposedSlug: Schema.optionalWith(Schema.NullOr(Slug), { default: () => null }),
  instructions: Schema.optionalWith(Instructions, { default: () => "" }),
  /** Usually the output of `derive-tasks`, as edited. */
  tasks: Schema.optionalWith(DraftTasks, { default: () => [] }),
  tools: Schema.optionalWith(DraftTools, { default: () => [] }),
  modelSettings: Schema.optionalWith(Schema.NullOr(ModelSettings), { default: () => null }),
  answers: Schema.optionalWith(DraftAnswers, { default: () => ({}) }),
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new draft (all optional); unknown fields are refused. */
export const AiAgentDraftCreate = AiAgentDraft.jsonCreate.annotations({
  identifier: "AiAgentDraftCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of a draft: each field given replaces the stored one; unknown fields are refused. */
export const AiAgentDraftPatch = Schema.Struct({
  step: Schema.optional(WizardStep),
  name: Schema.optional(DraftName),
  description: Schema.optional(AiAgentDescription),
  proposedSlug: Schema.optional(Schema.NullOr(Slug)),
  instructions: Schema.optional(Instructions),
  tasks: Schema.optional(DraftTasks),
  tools: Schema.optional(DraftTools),
  modelSettings: Schema.optional(Schema.NullOr(ModelSettings)),
  answers: Schema.optional(DraftAnswers)
}).annotations({ identifier: "AiAgentDraftPatch", parseOptions: { onExcessProperty: "error" } })

/** No wizard draft with this id exists in the current workspace. */
export class AiAgentDraftNotFound extends Schema.TaggedError<AiAgentDraftNotFound>()(
  "AiAgentDraftNotFound",
  { draftId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No wizard draft with this id" })
) {}
