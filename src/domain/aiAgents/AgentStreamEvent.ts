/**
 * The `text/event-stream` form of agent turns (`?stream=true`). Each SSE
 * event's `event:` line is its `type`, and its `data:` line is the JSON of the
 * schema below. A stream ends with `message.done` (carrying the same result
 * the JSON form answers) or `error`; failures before the first event are
 * ordinary HTTP errors.
 */
import { Schema } from "effect"
import { TraceId } from "../Trace.js"
import { TurnGuardrailEvent, TurnToolCall, VisibleGuardrailOutcome } from "./AgentTurn.js"
import { PlaygroundResult } from "./Playground.js"
import { PublicTurnResult } from "./PublicTurn.js"

/** The query of a turn route: `?stream=true` answers `text/event-stream` instead of JSON. */
export const StreamParams = Schema.Struct({
  stream: Schema.optionalWith(Schema.BooleanFromString, { default: () => false })
})

/** A piece of the agent's reply text, in order. */
export const MessageDeltaEvent = Schema.Struct({
  type: Schema.Literal("message.delta"),
  delta: Schema.String
}).annotations({ identifier: "MessageDeltaEvent" })

/** The turn failed after the stream began; `code` is the `_tag` the JSON form would have answered. */
export const StreamErrorEvent = Schema.Struct({
  type: Schema.Literal("error"),
  code: Schema.Literal("UpstreamFailed", "Timeout", "Overloaded", "InternalError"),
  message: Schema.String,
  traceId: TraceId
}).annotations({ identifier: "StreamErrorEvent" })

/** The model called a tool; its result follows as `tool.result` with the same id. */
export const ToolCallEvent = Schema.Struct({
  type: Schema.Literal("tool.call"),
  ...TurnToolCall.pick("id", "name", "toolId", "arguments").fields
}).annotations({ identifier: "ToolCallEvent" })

/** A tool call finished, failed or was blocked. */
export const ToolResultEvent = Schema.Struct({
  type: Schema.Literal("tool.result"),
  ...TurnToolCall.pick("id", "name", "status", "result", "error", "durationMs").fields
}).annotations({ identifier: "ToolResultEvent" })

/** A guardrail fired (playground: the full event). */
export const GuardrailStreamEvent = Schema.Struct({
  type: Schema.Literal("guardrail"),
  ...TurnGuardrailEvent.fields
}).annotations({ identifier: "GuardrailStreamEvent" })

/** The playground run is complete; `result` is what the JSON form answers. */
export const PlaygroundDoneEvent = Schema.Struct({
  type: Schema.Literal("message.done"),
  result: PlaygroundResult
}).annotations({ identifier: "PlaygroundDoneEvent" })

/** One event of a streamed playground run. */
export const PlaygroundStreamEvent = Schema.Union(
  MessageDeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  GuardrailStreamEvent,
  PlaygroundDoneEvent,
  StreamErrorEvent
).annotations({ identifier: "PlaygroundStreamEvent" })
export type PlaygroundStreamEvent = typeof PlaygroundStreamEvent.Type

/** A guardrail outcome the end user may see (public turns). */
export const VisibleGuardrailStreamEvent = Schema.Struct({
  type: Schema.Literal("guardrail"),
  ...VisibleGuardrailOutcome.fields
}).annotations({ identifier: "VisibleGuardrailStreamEvent" })

/** The public turn is complete; `result` is what the JSON form answers. */
export const PublicTurnDoneEvent = Schema.Struct({
  type: Schema.Literal("message.done"),
  result: PublicTurnResult
}).annotations({ identifier: "PublicTurnDoneEvent" })

/** One event of a streamed public turn: the reply, visible guardrail outcomes, the end. No tool events. */
export const PublicTurnStreamEvent = Schema.Union(
  MessageDeltaEvent,
  VisibleGuardrailStreamEvent,
  PublicTurnDoneEvent,
  StreamErrorEvent
).annotations({ identifier: "PublicTurnStreamEvent" })
export type PublicTurnStreamEvent = typeof PublicTurnStreamEvent.Type

/** Any event of an agent turn stream. */
export type AgentStreamEvent = PlaygroundStreamEvent | PublicTurnStreamEvent
