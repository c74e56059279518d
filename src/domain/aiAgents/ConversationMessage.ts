import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { TraceId } from "../Trace.js"
import { FinishReason, TokenUsage, TurnGuardrailEvent, TurnHandoff, TurnToolCall } from "./AgentTurn.js"
import { AiAgentConversation } from "./Conversation.js"
import { AiAgentConversationId, AiAgentMessageId, AiAgentVersionNumber } from "./Ids.js"
import { ResolvedModel } from "./ModelSettings.js"

/** Who wrote a message: the end user, the agent, or a tool the agent called. */
export const MessageRole = Schema.Literal("user", "assistant", "tool").annotations({ identifier: "MessageRole" })

/**
 * One message of a stored conversation, in transcript order. A `tool`
 * message carries one tool call with its arguments and result; an
 * `assistant` message carries the turn's usage, latency and model. Guardrail
 * events sit on the message they judged.
 */
export class AiAgentMessage extends Model.Class<AiAgentMessage>("AiAgentMessage")({
  id: Model.Generated(AiAgentMessageId),
  workspaceId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(WorkspaceId),
  conversationId: Model.FieldExcept("json", "jsonCreate", "jsonUpdate")(AiAgentConversationId),
  role: MessageRole,
  /** The text; for a `tool` message, a one-line rendering of the call. After a `redact` guardrail, the redacted text. */
  content: Schema.String,
  redacted: Schema.Boolean,
  toolCall: Schema.NullOr(TurnToolCall),
  guardrailEvents: Schema.Array(TurnGuardrailEvent),
  usage: Schema.NullOr(TokenUsage),
  latencyMs: Schema.NullOr(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  model: Schema.NullOr(ResolvedModel),
  /** The version that wrote an `assistant` message; null for the draft (playground) and other roles. */
  version: Schema.NullOr(AiAgentVersionNumber),
  finishReason: Schema.NullOr(FinishReason),
  handoff: Schema.NullOr(TurnHandoff),
  /** The trace of the turn that produced it, for debugging. */
  traceId: Schema.NullOr(TraceId),
  createdAt: Model.DateTimeInsertFromDate
}) {}

/** A conversation with its whole transcript. */
export class AiAgentConversationDetail extends Schema.Class<AiAgentConversationDetail>("AiAgentConversationDetail")({
  ...AiAgentConversation.json.fields,
  messages: Schema.Array(AiAgentMessage.json)
}) {}
