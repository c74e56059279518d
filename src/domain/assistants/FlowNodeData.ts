/**
 * The `data` of each flow node type. Which edges leave a node follows from its
 * type (see `FlowEdge`): `next` after start, message and set-variable;
 * `answered`, `option` and `fallback` after a question; `intent` and
 * `fallback` after an intent router; `case` and `fallback` after a condition;
 * `next` and `error` after http and ai; none after handoff, jump and end.
 */
import { Schema } from "effect"
import { ChannelConnectionId } from "../channels/Ids.js"
import { JsonValue } from "../Json.js"
import { MaxOutputTokens } from "../settings/LlmConnection.js"
import { HttpsUrl } from "../Url.js"
import { VariableName } from "../VariableName.js"
import { ToolArgumentName } from "../workspace/HttpToolDefinition.js"
import { WorkspaceToolId } from "../workspace/Ids.js"
import { ConfidenceThreshold } from "./Assistant.js"
import { FlowNodeId, RouteKey, SubflowId } from "./FlowIds.js"
import { IntentName } from "./Intent.js"
import { ButtonLabel, QuestionValidation } from "./QuestionValidation.js"
import { FlowExpression, Template } from "./Variable.js"

/** A button under a message: pressing it sends its `payload` as the next turn. */
export const FlowButton = Schema.Struct({
  label: ButtonLabel,
  payload: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))
}).annotations({ identifier: "FlowButton" })

/** The entry of the main flow; exactly one per flow. It has no data: `{}` (an empty struct would accept any object). */
export const StartData = Schema.Record({ key: Schema.String, value: Schema.Never }).annotations({
  identifier: "StartNodeData"
})

/** Sends text (and optionally an image and buttons), then follows `next`. */
export const MessageData = Schema.Struct({
  text: Template,
  image: Schema.optional(
    Schema.Struct({
      url: HttpsUrl,
      alt: Schema.optional(Schema.String.pipe(Schema.maxLength(300)))
    })
  ),
  buttons: Schema.optionalWith(Schema.Array(FlowButton).pipe(Schema.maxItems(10)), { default: () => [] }),
  /** How long the widget waits ("typing…") before showing the message. */
  delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)))
}).annotations({ identifier: "MessageNodeData" })

/**
 * Asks, waits for the answer and stores it in `variable`. A valid answer
 * follows its `option` edge (choice questions) or `answered`; after
 * `maxAttempts` invalid ones it follows `fallback`.
 */
export const QuestionData = Schema.Struct({
  prompt: Template,
  variable: VariableName,
  validation: QuestionValidation,
  maxAttempts: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 10)), { default: () => 3 }),
  /** Said after an invalid answer; a default built from the validation when omitted. */
  reprompt: Schema.optional(Template)
}).annotations({ identifier: "QuestionNodeData" })

/**
 * Waits for the user's message, classifies it among `intents` and follows the
 * matching `intent` edge, or `fallback` below the threshold (out of scope).
 */
export const IntentRouterData = Schema.Struct({
  intents: Schema.Array(IntentName).pipe(Schema.minItems(1), Schema.maxItems(200)),
  /** Overrides the Assistant's `nluThreshold` for this router. */
  threshold: Schema.optional(ConfidenceThreshold),
  /** Slot name to the variable that receives the slot's value when the matched intent fills it. */
  slotVariables: Schema.optionalWith(
    Schema.Record({ key: IntentName, value: VariableName }).pipe(
      Schema.filter((slots) => Object.keys(slots).length <= 50 || "at most 50 slot variables", {
        jsonSchema: { maxProperties: 50 }
      })
    ),
    { default: () => ({}) }
  )
}).annotations({ identifier: "IntentRouterNodeData" })

/** One branch of a condition: when `expression` is truthy, the `case` edge with this `key` is followed. */
export const ConditionCase = Schema.Struct({
  key: RouteKey,
  expression: FlowExpression
}).annotations({ identifier: "ConditionCase" })

/**
 * Tries `cases` in order and follows the first true one's `case` edge, or
 * `fallback` when none holds. An if/else is one case keyed `true` plus the
 * fallback edge.
 */
export const ConditionData = Schema.Struct({
  cases: Schema.Array(ConditionCase).pipe(Schema.minItems(1), Schema.maxItems(20))
}).annotations({ identifier: "ConditionNodeData" })

/** Sets `variable` to a literal JSON `value`, or to what `expression` computes; then `next`. */
export const SetVariableData = Schema.Union(
  Schema.Struct({ variable: VariableName, value: JsonValue }).annotations({}),
  Schema.Struct({ variable: VariableName, expression: FlowExpression }).annotations({})
).annotations({ identifier: "SetVariableNodeData" })

/**
 * Calls a workspace tool with arguments computed by expressions, stores its
 * JSON result in `resultVariable` and follows `next`, or `error` when the call
 * fails or times out.
 */
export const HttpData = Schema.Struct({
  toolId: WorkspaceToolId,
  input: Schema.optionalWith(
    Schema.Record({ key: ToolArgumentName, value: FlowExpression }).pipe(
      Schema.filter((input) => Object.keys(input).length <= 100 || "at most 100 arguments", {
        jsonSchema: { maxProperties: 100 }
      })
    ),
    { default: () => ({}) }
  ),
  resultVariable: VariableName,
  timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 30_000)))
}).annotations({ identifier: "HttpNodeData" })

/**
 * Asks the workspace LLM: `prompt` is rendered, the answer is stored in
 * `resultVariable` and, when `reply` is true, also sent to the user; then
 * `next`, or `error` when the provider fails.
 */
export const AiData = Schema.Struct({
  prompt: Template,
  resultVariable: VariableName,
  reply: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** The most tokens the answer may use (at most 4,096: a chat reply). */
  maxOutputTokens: Schema.optional(MaxOutputTokens.pipe(Schema.lessThanOrEqualTo(4096)))
}).annotations({ identifier: "AiNodeData" })

/** Where a handoff goes: the workspace's default target, or a channel connection (helpdesk, contact centre). */
export const HandoffTarget = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("default") }),
  Schema.Struct({
    kind: Schema.Literal("connection"),
    connectionId: ChannelConnectionId,
    /** A queue, group or department on the provider's side. */
    queue: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(120)))
  })
).annotations({ identifier: "HandoffTarget" })

/** Hands the conversation to a human; the session's status becomes `handed-off`. */
export const HandoffData = Schema.Struct({
  target: HandoffTarget,
  message: Schema.optional(Template)
}).annotations({ identifier: "HandoffNodeData" })

/** Continues at another node, or at a sub-flow's entry (a go-to: nothing returns). */
export const JumpData = Schema.Struct({
  target: Schema.Union(
    Schema.Struct({ kind: Schema.Literal("node"), nodeId: FlowNodeId }).annotations({}),
    Schema.Struct({ kind: Schema.Literal("subflow"), subflowId: SubflowId }).annotations({})
  )
}).annotations({ identifier: "JumpNodeData" })

/** A label for how a conversation ended, counted by analytics: `resolved`, `order_placed`. */
export const OutcomeLabel = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/),
  Schema.annotations({ identifier: "FlowOutcome", examples: ["resolved"] })
)

/** Ends the conversation (a completed session), optionally with a last message and an outcome. */
export const EndData = Schema.Struct({
  message: Schema.optional(Template),
  outcome: Schema.optional(OutcomeLabel)
}).annotations({ identifier: "EndNodeData" })
