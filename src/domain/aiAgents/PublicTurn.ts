import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { TraceId } from "../Trace.js"
import { TurnMetadata, UserMessageText, VisibleGuardrailOutcome } from "./AgentTurn.js"
import { AiAgentConversationId, AiAgentMessageId, AiAgentVersionNumber, EndUserId } from "./Ids.js"

/**
 * One end-user message to a live agent. Without `conversationId` a new
 * conversation starts; `metadata` is stored with the conversation (merged
 * into what earlier turns sent). Unknown fields are refused.
 */
export const PublicTurnRequest = Schema.Struct({
  conversationId: Schema.optional(AiAgentConversationId),
  message: UserMessageText,
  /** The site's id for its user: scopes user memory; a conversation started with one only continues with it. */
  endUserId: Schema.optional(EndUserId),
  metadata: Schema.optional(TurnMetadata)
}).annotations({ identifier: "PublicTurnRequest", parseOptions: { onExcessProperty: "error" } })

/**
 * How the turn ended for the user: the agent `answered`; an input guardrail
 * `blocked` the message (the reply is the agent's refusal notice); or the
 * conversation was `handed-off` to a human (the reply says so).
 */
export const PublicTurnOutcome = Schema.Literal("answered", "blocked", "handed-off").annotations({
  identifier: "PublicTurnOutcome"
})

/** The answer of a public turn: what the end user should see, and nothing internal (no tool calls or rule names). */
export class PublicTurnResult extends Schema.Class<PublicTurnResult>("PublicTurnResult")({
  conversationId: AiAgentConversationId,
  message: Schema.Struct({ id: AiAgentMessageId, content: Schema.String }),
  outcome: PublicTurnOutcome,
  /** Whether the conversation was handed to a human in this turn. */
  handoff: Schema.Boolean,
  guardrails: Schema.Array(VisibleGuardrailOutcome),
  /** The live version that answered. */
  version: AiAgentVersionNumber,
  traceId: TraceId
}) {}

/**
 * The public token is unknown: never issued, rotated away, or its agent was
 * deleted. All three look the same, so a token cannot be probed.
 */
export class PublicAgentNotFound extends Schema.TaggedError<PublicAgentNotFound>()(
  "PublicAgentNotFound",
  { message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "Unknown or rotated public token" })
) {}
