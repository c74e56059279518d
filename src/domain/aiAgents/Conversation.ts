import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { TokenUsage, TurnMetadata } from "./AgentTurn.js"
import { AiAgentConversationId, AiAgentId, AiAgentVersionNumber, EndUserId } from "./Ids.js"

/**
 * Where a conversation came from: `web` is the public turn route (the widget
 * or a direct API caller), `playground` an editor trying the draft,
 * `workflow` a workflow's `ai-agent` node (one conversation per run and
 * agent); the rest are channel connections.
 */
export const ConversationChannel = Schema.Literal(
  "web",
  "playground",
  "workflow",
  "sms",
  "whatsapp",
  "voice",
  "webhook"
)
  .annotations({ identifier: "ConversationChannel" })

/**
 * `active` takes turns; `handed-off` was passed to a human and the agent no
 * longer answers; `ended` reached its token or turn budget (agent-ops).
 */
export const ConversationStatus = Schema.Literal("active", "handed-off", "ended").annotations({
  identifier: "ConversationStatus"
})

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/** A conversation of an AI agent with one end user (or an editor, in the playground). */
export class AiAgentConversation extends Model.Class<AiAgentConversation>("AiAgentConversation")({
  /** Also the seed's `{convo_slug}`. */
  id: Model.Generated(AiAgentConversationId),
  workspaceId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(AiAgentId),
  channel: ConversationChannel,
  status: ConversationStatus,
  /** The version that answered its first turn (each assistant message records its own); null in the playground. */
  version: Schema.NullOr(AiAgentVersionNumber),
  endUserId: Schema.NullOr(EndUserId),
  /** The start of the first user message, up to 120 characters. */
  title: Schema.String,
  metadata: TurnMetadata,
  turns: Count,
  /** Tokens and cost summed over all its turns. */
  usage: TokenUsage,
  guardrailHits: Count,
  createdAt: Model.DateTimeInsertFromDate,
  /** The time of its last turn. */
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The query of a conversation list: a page, filtered by time, status, end user, version and channel. */
export const ConversationListParams = Schema.Struct({
  ...ListParams.fields,
  /** Started at or after this instant (ISO 8601). */
  from: Schema.optional(Schema.DateTimeUtc),
  /** Started before this instant (ISO 8601). */
  to: Schema.optional(Schema.DateTimeUtc),
  status: Schema.optional(ConversationStatus),
  endUserId: Schema.optional(EndUserId),
  version: Schema.optional(Schema.NumberFromString.pipe(Schema.compose(AiAgentVersionNumber))),
  /** Playground conversations are listed only when asked for by this filter. */
  channel: Schema.optional(ConversationChannel)
})

/** No conversation with this id belongs to the agent (or to this end user). */
export class AiAgentConversationNotFound extends Schema.TaggedError<AiAgentConversationNotFound>()(
  "AiAgentConversationNotFound",
  { conversationId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No such conversation for this agent" })
) {}

/** The conversation was handed off or ended, so the agent takes no more turns in it; start a new one. */
export class AiAgentConversationClosed extends Schema.TaggedError<AiAgentConversationClosed>()(
  "AiAgentConversationClosed",
  { conversationId: AiAgentConversationId, status: ConversationStatus, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "The conversation no longer takes turns" })
) {}
