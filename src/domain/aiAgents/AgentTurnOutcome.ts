/**
 * What one AI-agent turn that ran to its end stored as its result: the one
 * value a repeat of its idempotency key is answered from, and from which both
 * the playground's `PlaygroundResult` and the public `PublicTurnResult` are
 * made. The loop's own finish reasons are kept (`loopFinish`); the API's
 * `FinishReason` has no `token-budget` or `content-filter`, so those are
 * shown as `max-steps` (a limit stopped the turn) and `guardrail` (the
 * provider's filter stopped it).
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"
import { TraceId } from "../Trace.js"
import { FinishReason, TokenUsage, TurnGuardrailEvent, TurnHandoff, TurnToolCall } from "./AgentTurn.js"
import { AiAgentConversationId, AiAgentMessageId, AiAgentVersionNumber } from "./Ids.js"
import { LoopFinishReason } from "./loop/AgentLoop.js"
import { ResolvedModel } from "./ModelSettings.js"

/** The source a turn runs: the draft (the playground) or a published version (public turns). */
export const TurnSource = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("draft") }),
  Schema.Struct({ kind: Schema.Literal("version"), number: AiAgentVersionNumber })
).annotations({ identifier: "TurnSource" })
export type TurnSource = typeof TurnSource.Type

/** A stored turn that ran to its end. */
export const AgentTurnOutcome = Schema.Struct({
  conversationId: AiAgentConversationId,
  /** The turn's number in its conversation, from 1. */
  turn: Schema.Number.pipe(Schema.int(), Schema.positive()),
  message: Schema.Struct({ id: AiAgentMessageId, content: Schema.String }),
  toolCalls: Schema.Array(TurnToolCall),
  /** The guardrails that hit: on the user's message, the reply, the tool calls (none in turns stored before them). */
  guardrailEvents: Schema.optionalWith(Schema.Array(TurnGuardrailEvent), { default: () => [] }),
  loopFinish: LoopFinishReason,
  finishReason: FinishReason,
  handoff: Schema.NullOr(TurnHandoff),
  usage: TokenUsage,
  latencyMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  model: ResolvedModel,
  /** The draft revision that ran; null for a version. */
  revision: Schema.NullOr(Revision),
  /** The version that ran; null for the draft. */
  version: Schema.NullOr(AiAgentVersionNumber),
  traceId: TraceId
}).annotations({ identifier: "AgentTurnOutcome" })
export type AgentTurnOutcome = typeof AgentTurnOutcome.Type

/** The API's finish reason for the loop's. */
export const finishReasonOf = (reason: LoopFinishReason): typeof FinishReason.Type => {
  switch (reason) {
    case "token-budget":
      return "max-steps"
    case "content-filter":
      return "guardrail"
    default:
      return reason
  }
}

/**
 * The model provider failed (after its retries and fallback): stored as the
 * turn's result, so a repeat of the key gets this same answer and the
 * conversation takes its next turn.
 */
export class AgentTurnUpstreamFailed extends Schema.TaggedError<AgentTurnUpstreamFailed>()(
  "AgentTurnUpstreamFailed",
  { provider: Schema.String, message: Schema.String }
) {}

/** The turn died on every attempt (a poison turn) and will not be tried again. */
export class AgentTurnFailed extends Schema.TaggedError<AgentTurnFailed>()(
  "AgentTurnFailed",
  { conversationId: Schema.String, attempts: Schema.Number, message: Schema.String }
) {}

/** What a failed turn stores as its result: one of the two failures above. */
export const StoredTurnFailure = Schema.Union(AgentTurnUpstreamFailed, AgentTurnFailed)
