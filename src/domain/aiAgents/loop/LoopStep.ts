/**
 * The recorded steps of one AI-agent turn, stored one by one as they complete
 * (durable steps), so a node that takes over a turn mid-way decides from them
 * alone what to do next (`AgentLoop.nextAction`).
 *
 * A step's `index` is its place in the turn, fixed before it runs: a model
 * step at index `i` that asks for `n` tool calls reserves the indexes
 * `i + 1 … i + n` for their tool steps, in the order of its calls, and the
 * next model step (if any) is at `i + n + 1`. Parallel calls finish in any
 * order, but each one's tool step always lands on its reserved index, so
 * a retried call keeps its step number (and with it its Idempotency-Key).
 *
 * Tool names are recorded exactly as the model sent them (not as `ToolName`):
 * a model may call a tool that does not exist, and that call must be recorded
 * and answered with a failed tool step, not refused at the store.
 */
import { Schema } from "effect"
import { JsonValue } from "../../Json.js"
import { TokenUsage, ToolCallId, TurnGuardrailEvent } from "../AgentTurn.js"

/** The place of a step in its turn, from 0. */
export const StepIndex = Schema.Number.pipe(Schema.int(), Schema.nonNegative()).annotations({
  identifier: "StepIndex"
})

/** One tool call a model step asked for, with the arguments as the model sent them. */
export const LoopToolCall = Schema.Struct({
  id: ToolCallId,
  name: Schema.String,
  arguments: JsonValue
}).annotations({ identifier: "LoopToolCall" })
export type LoopToolCall = typeof LoopToolCall.Type

/** Why the provider said the model stopped; the loop decides from the calls, not from this word alone. */
export const ModelFinish = Schema.Literal("stop", "length", "tool-calls", "content-filter", "other").annotations({
  identifier: "ModelFinish"
})
export type ModelFinish = typeof ModelFinish.Type

/**
 * An output guardrail stopped a model step's text (`block` or `handoff`):
 * the text stored is what was shown before, its tool calls are dropped, and
 * the turn ends with the guardrail's message (null: the default wording).
 */
export const GuardrailStopped = Schema.Struct({
  action: Schema.Literal("block", "handoff"),
  guardrailId: Schema.String,
  name: Schema.String,
  message: Schema.NullOr(Schema.String)
}).annotations({ identifier: "GuardrailStopped" })

/** The guardrails that hit a step (absent in steps stored before guardrails existed: none). */
const stepGuardrailEvents = Schema.optional(Schema.Array(TurnGuardrailEvent))

/**
 * One model call of a turn: what it answered (after the output guardrails:
 * the text as shown), what it asked for, what it cost.
 */
export const ModelStep = Schema.TaggedStruct("ModelStep", {
  index: StepIndex,
  text: Schema.String,
  toolCalls: Schema.Array(LoopToolCall),
  finish: ModelFinish,
  usage: TokenUsage.pick("inputTokens", "outputTokens"),
  latencyMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  /** The model that answered (after any fallback). */
  model: Schema.String,
  guardrailEvents: stepGuardrailEvents,
  stopped: Schema.optional(GuardrailStopped)
}).annotations({ identifier: "ModelStep" })
export type ModelStep = typeof ModelStep.Type

/**
 * How one tool call ended: `blocked` (a guardrail refused it before it ran)
 * and `timed-out` are told apart from `failed` for the transcript and analytics.
 */
export const ToolStepStatus = Schema.Literal("succeeded", "failed", "blocked", "timed-out").annotations({
  identifier: "ToolStepStatus"
})
export type ToolStepStatus = typeof ToolStepStatus.Type

/** One tool call of a turn, run: its outcome, on the index its model step reserved for it. */
export const ToolStep = Schema.TaggedStruct("ToolStep", {
  index: StepIndex,
  callId: ToolCallId,
  name: Schema.String,
  status: ToolStepStatus,
  /** The tool's output; null unless it succeeded. */
  result: JsonValue,
  /** What went wrong, as the model may read it; null when it succeeded. */
  error: Schema.NullOr(Schema.String),
  durationMs: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  /** The guardrails that judged the call (allowed tool domains) or its result (prompt injection). */
  guardrailEvents: stepGuardrailEvents
}).annotations({ identifier: "ToolStep" })
export type ToolStep = typeof ToolStep.Type

/** A recorded step of a turn. */
export const LoopStep = Schema.Union(ModelStep, ToolStep).annotations({ identifier: "LoopStep" })
export type LoopStep = typeof LoopStep.Type
