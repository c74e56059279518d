import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { Revision } from "../Revision.js"
import { Slug } from "../Slug.js"
import { ConversationSettings } from "./ConversationSettings.js"
import { EmbedSettings } from "./EmbedSettings.js"
import { AiAgentDraftId, AiAgentId, AiAgentVersionNumber } from "./Ids.js"
import { ModelSettings } from "./ModelSettings.js"
import { PublicTokenHint } from "./PublicToken.js"

/** What the agent is for, in a sentence or two; also the input of task derivation. */
export const AiAgentDescription = Schema.String.pipe(Schema.maxLength(4000))

/**
 * The agent's instructions (its system prompt). `{{name}}` placeholders are
 * filled from a turn's variables or metadata; unknown ones render empty.
 */
export const Instructions = Schema.String.pipe(Schema.maxLength(32_000))

/** Whether an agent has only a draft, or a live version that public turns run. */
export const AiAgentStatus = Schema.Literal("draft-only", "live").annotations({ identifier: "AiAgentStatus" })
export type AiAgentStatus = typeof AiAgentStatus.Type

const defaultModelSettings = () => Schema.decodeSync(ModelSettings)({})
const defaultConversationSettings = () => Schema.decodeSync(ConversationSettings)({})
const defaultEmbedSettings = () => Schema.decodeSync(EmbedSettings)({})

/**
 * An AI agent: a draft configuration (instructions, model, conversation and
 * widget settings; its tasks, tools, memory, knowledge, guardrails and evals
 * are collections under it) and, once published, a live version.
 */
export class AiAgent extends Model.Class<AiAgent>("AiAgent")({
  id: Model.Generated(AiAgentId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  /** Unique per workspace; fixed at creation, since URLs and embeds use it. */
  slug: Model.FieldExcept("jsonUpdate")(Slug),
  name: Name,
  description: Schema.optionalWith(AiAgentDescription, { default: () => "" }),
  instructions: Schema.optionalWith(Instructions, { default: () => "" }),
  modelSettings: Schema.optionalWith(ModelSettings, { default: defaultModelSettings }),
  conversation: Schema.optionalWith(ConversationSettings, { default: defaultConversationSettings }),
  embed: Schema.optionalWith(EmbedSettings, { default: defaultEmbedSettings }),
  status: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentStatus),
  liveVersion: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(AiAgentVersionNumber)),
  /** Whether the draft changed since the live version was published (always true before the first publish). */
  hasUnpublishedChanges: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Boolean),
  /** The SHA-256 of the public token; the token itself is never stored. */
  publicTokenHash: Model.Sensitive(Schema.NullOr(Schema.String)),
  publicTokenHint: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(PublicTokenHint)),
  /** The draft's revision: every write to the agent or its collections increments it. */
  revision: Model.FieldExcept("jsonCreate", "jsonUpdate")(Revision),
  /** Create only: the wizard draft this agent is made from. */
  fromDraft: Model.FieldOnly("jsonCreate")(Schema.optional(AiAgentDraftId)),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/**
 * The fields of a new agent; unknown fields are refused. With `fromDraft`, the
 * wizard draft's derived tasks and chosen tools become the agent's tasks and
 * tools, and the draft is deleted.
 */
export const AiAgentCreate = AiAgent.jsonCreate.annotations({
  identifier: "AiAgentCreate",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of an agent's draft; nested settings are replaced whole. Unknown fields are refused. */
export const AiAgentPatch = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(AiAgentDescription),
  instructions: Schema.optional(Instructions),
  modelSettings: Schema.optional(ModelSettings),
  conversation: Schema.optional(ConversationSettings),
  embed: Schema.optional(EmbedSettings)
}).annotations({ identifier: "AiAgentPatch", parseOptions: { onExcessProperty: "error" } })

/** The query of `GET /ai-agents`: a page, optionally only agents in one status or matching a text. */
export const AiAgentListParams = Schema.Struct({
  ...ListParams.fields,
  status: Schema.optional(AiAgentStatus),
  /** Matches a substring of the name or slug, case-insensitively. */
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
})

/** No AI agent with this slug exists in the current workspace. */
export class AiAgentNotFound extends Schema.TaggedError<AiAgentNotFound>()(
  "AiAgentNotFound",
  { slug: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No AI agent with this slug" })
) {}

/** Another AI agent of the workspace already has this slug. */
export class AiAgentSlugTaken extends Schema.TaggedError<AiAgentSlugTaken>()(
  "AiAgentSlugTaken",
  { slug: Slug, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The slug is taken in this workspace" })
) {}
