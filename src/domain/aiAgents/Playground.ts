import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { TraceId } from "../Trace.js"
import {
  FinishReason,
  TokenUsage,
  TurnGuardrailEvent,
  TurnHandoff,
  TurnToolCall,
  TurnVariables,
  UserMessageText
} from "./AgentTurn.js"
import { AiAgentConversationId, AiAgentMessageId, EndUserId } from "./Ids.js"
import { ResolvedModel } from "./ModelSettings.js"

/** A message of a transcript given to the playground: a user or assistant message, as text. */
export const PlaygroundMessage = Schema.Struct({
  role: Schema.Literal("user", "assistant"),
  content: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(32_000))
}).annotations({ identifier: "PlaygroundMessage" })

/**
 * A stateless run: the whole transcript is sent and its last message must be
 * the user's; nothing is stored. Suits replays and scripted checks.
 */
export const PlaygroundTranscriptRequest = Schema.Struct({
  messages: Schema.Array(PlaygroundMessage).pipe(Schema.minItems(1), Schema.maxItems(100)),
  variables: Schema.optional(TurnVariables),
  endUserId: Schema.optional(EndUserId)
}).annotations({ identifier: "PlaygroundTranscriptRequest" })

/**
 * A conversational run: one new user message in a stored playground
 * conversation (channel `playground`), started when `conversationId` is
 * omitted. Its transcript is then readable under `/conversations`.
 */
export const PlaygroundTurnRequest = Schema.Struct({
  conversationId: Schema.optional(AiAgentConversationId),
  message: UserMessageText,
  variables: Schema.optional(TurnVariables),
  /** Scopes user memory as a public turn with this end user would. */
  endUserId: Schema.optional(EndUserId)
}).annotations({ identifier: "PlaygroundTurnRequest" })

/** The body of `POST /ai-agents/{slug}/playground`: a transcript, or one message of a conversation. */
export const PlaygroundRequest = Schema.Union(PlaygroundTranscriptRequest, PlaygroundTurnRequest).annotations({
  identifier: "PlaygroundRequest",
  parseOptions: { onExcessProperty: "error" }
})

/** The agent's reply in a turn; its id is null when nothing was stored (a transcript run). */
export const AgentReply = Schema.Struct({
  id: Schema.NullOr(AiAgentMessageId),
  content: Schema.String
}).annotations({ identifier: "AgentReply" })

/**
 * What one playground run of the draft did: the reply, every tool call with
 * arguments and results, the guardrails that fired, tokens, cost and latency.
 */
export class PlaygroundResult extends Schema.Class<PlaygroundResult>("PlaygroundResult")({
  /** The playground conversation continued or started; null for a transcript run. */
  conversationId: Schema.NullOr(AiAgentConversationId),
  message: AgentReply,
  toolCalls: Schema.Array(TurnToolCall),
  guardrailEvents: Schema.Array(TurnGuardrailEvent),
  handoff: Schema.NullOr(TurnHandoff),
  finishReason: FinishReason,
  usage: TokenUsage,
  /** Wall time of the turn, tools included. */
  latencyMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  model: ResolvedModel,
  /** The draft revision that ran. */
  revision: Revision,
  traceId: TraceId
}) {}
