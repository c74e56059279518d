/**
 * What the bot says in a turn, already rendered (templates filled in), in the
 * order the widget shows them.
 */
import { Schema } from "effect"
import { FlowNodeId } from "../assistants/FlowIds.js"
import { FlowButton } from "../assistants/FlowNodeData.js"

const common = {
  /** The node that produced the message. */
  nodeId: FlowNodeId,
  /** How long to show "typing…" before the message. */
  delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)))
}

/** Plain text. */
export const TextMessage = Schema.Struct({
  type: Schema.Literal("text"),
  text: Schema.String,
  ...common
}).annotations({ identifier: "BotTextMessage" })

/**
 * Buttons (they stay) or quick replies (they go once one is used); either way
 * the chosen one's `payload` is the next turn's input.
 */
export const ButtonsMessage = Schema.Struct({
  type: Schema.Literal("buttons"),
  text: Schema.optional(Schema.String),
  display: Schema.Literal("buttons", "quick-replies"),
  buttons: Schema.Array(FlowButton).pipe(Schema.minItems(1)),
  ...common
}).annotations({ identifier: "BotButtonsMessage" })

/** An image by https URL. */
export const ImageMessage = Schema.Struct({
  type: Schema.Literal("image"),
  url: Schema.String,
  alt: Schema.optional(Schema.String),
  ...common
}).annotations({ identifier: "BotImageMessage" })

/** The conversation goes to a human: the session's status is now `handed-off`. */
export const HandoffMessage = Schema.Struct({
  type: Schema.Literal("handoff"),
  text: Schema.optional(Schema.String),
  /** A queue or department named by the handoff node. */
  queue: Schema.optional(Schema.String),
  ...common
}).annotations({ identifier: "BotHandoffMessage" })

/** The conversation is over: the session's status is now `ended`. */
export const EndMessage = Schema.Struct({
  type: Schema.Literal("end"),
  text: Schema.optional(Schema.String),
  outcome: Schema.optional(Schema.String),
  ...common
}).annotations({ identifier: "BotEndMessage" })

/** One message of the bot. */
export const BotMessage = Schema.Union(TextMessage, ButtonsMessage, ImageMessage, HandoffMessage, EndMessage)
  .annotations({ identifier: "BotMessage" })
export type BotMessage = typeof BotMessage.Type
