/**
 * The parts of one AI-agent turn, shared by the playground, public turns and
 * stored conversations: the user's text, the tool calls made, the guardrails
 * that fired, and what it cost.
 */
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { Name } from "../Name.js"
import { VariableName } from "../VariableName.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"
import { GuardrailAction, GuardrailStage } from "./Guardrail.js"
import { GuardrailKind } from "./GuardrailRule.js"
import { AiAgentGuardrailId, AiAgentToolId } from "./Ids.js"

/** A user's message: trimmed, 1 to 8000 characters. */
export const UserMessageText = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(8000))

const withAtMost = (max: number) => <A extends Readonly<Record<string, unknown>>, I, R>(self: Schema.Schema<A, I, R>) =>
  self.pipe(Schema.filter((record) => Object.keys(record).length <= max || `at most ${max} entries`))

/** Values for the `{{name}}` placeholders of the instructions: up to 50 entries. */
export const TurnVariables = Schema.Record({
  key: VariableName,
  value: Schema.String.pipe(Schema.maxLength(4000))
}).pipe(withAtMost(50), Schema.annotations({ identifier: "TurnVariables" }))

/**
 * Small facts the caller attaches to a conversation (`plan: "pro"`, `page: "/checkout"`):
 * up to 20 entries, stored with it, and readable by the instructions as `{{metadata.key}}`.
 */
export const TurnMetadata = Schema.Record({
  key: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_.-]{1,64}$/)),
  value: Schema.String.pipe(Schema.maxLength(500))
}).pipe(withAtMost(20), Schema.annotations({ identifier: "TurnMetadata" }))

/** The provider's id of one tool call (`call_…`), linking a call to its result. */
export const ToolCallId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

/** A tool call the model made during a turn, with its arguments and what the tool answered. */
export const TurnToolCall = Schema.Struct({
  id: ToolCallId,
  name: ToolName,
  /** The agent tool called; null for a built-in (`knowledge_search`, `remember`, `handoff`). */
  toolId: Schema.NullOr(AiAgentToolId),
  /** The arguments as the model sent them. */
  arguments: JsonValue,
  /** `blocked`: a guardrail (e.g. allowed tool domains) refused the call before it ran. */
  status: Schema.Literal("succeeded", "failed", "blocked"),
  /** The tool's output; null when it failed or was blocked. */
  result: JsonValue,
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative())
}).annotations({ identifier: "TurnToolCall" })
export type TurnToolCall = typeof TurnToolCall.Type

/** A guardrail that fired during a turn (at `output`, also on a tool call). The matched text is never recorded. */
export const TurnGuardrailEvent = Schema.Struct({
  guardrailId: AiAgentGuardrailId,
  name: Name,
  kind: GuardrailKind,
  stage: GuardrailStage,
  action: GuardrailAction,
  /** What matched, described without the matched text (`2 email addresses redacted`). */
  detail: Schema.String
}).annotations({ identifier: "TurnGuardrailEvent" })
export type TurnGuardrailEvent = typeof TurnGuardrailEvent.Type

/** A guardrail outcome as an end user may see it: no rule names or internals. */
export const VisibleGuardrailOutcome = Schema.Struct({
  stage: GuardrailStage,
  action: GuardrailAction,
  /** The notice shown to the user (`Your message contained a card number; it was removed.`). */
  notice: Schema.String
}).annotations({ identifier: "VisibleGuardrailOutcome" })

/** Tokens a turn (or a sum of turns) used, and their cost; null cost when the model's price is unknown. */
export const TokenUsage = Schema.Struct({
  inputTokens: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  outputTokens: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  costUsd: Schema.NullOr(Schema.Number.pipe(Schema.nonNegative()))
}).annotations({ identifier: "TokenUsage" })
export type TokenUsage = typeof TokenUsage.Type

/**
 * Why the agent stopped: it answered (`stop`), hit the output limit (`length`)
 * or the step limit while running tools (`max-steps`), a guardrail blocked
 * (`guardrail`), or it handed the conversation to a human (`handoff`).
 */
export const FinishReason = Schema.Literal("stop", "length", "max-steps", "guardrail", "handoff").annotations({
  identifier: "FinishReason"
})

/** A hand-off to a human that happened in a turn; the target comes from the workspace's agent-ops settings. */
export const TurnHandoff = Schema.Struct({
  reason: Schema.String,
  /** Who triggered it: the model (the `handoff` tool) or a guardrail with the `handoff` action. */
  triggeredBy: Schema.Literal("agent", "guardrail"),
  /** The channel connection that received it (helpdesk, contact centre), when one is configured. */
  target: Schema.NullOr(Schema.String)
}).annotations({ identifier: "TurnHandoff" })
