import { Schema } from "effect"
import { ModelLabel } from "./Ids.js"

/**
 * One line of a `labelled-utterances` dataset:
 * `{"text": "where is my parcel", "label": "order.status"}`. A row may pin
 * itself to a side of the split with `"split": "train"` or `"split": "test"`.
 */
export const LabelledUtteranceRow = Schema.Struct({
  text: Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(2000)),
  label: ModelLabel,
  split: Schema.optional(Schema.Literal("train", "test"))
}).annotations({ identifier: "LabelledUtteranceRow", parseOptions: { onExcessProperty: "error" } })
export type LabelledUtteranceRow = typeof LabelledUtteranceRow.Type

/** A speaker of a training conversation, as chat-completion APIs name them. */
export const ChatRole = Schema.Literal("system", "user", "assistant", "tool")

/**
 * One message of a training conversation. `content` is `null` only on an
 * `assistant` message that calls tools; tool calls and results are carried in
 * the provider's own fields (`tool_calls`, `tool_call_id`), uploaded unchanged.
 */
export const ChatMessage = Schema.Struct({
  role: ChatRole,
  content: Schema.NullOr(Schema.String.pipe(Schema.maxLength(100_000))),
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
  tool_calls: Schema.optional(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  tool_call_id: Schema.optional(Schema.String),
  /** For `assistant` messages: 0 excludes it from the loss (OpenAI's `weight`). */
  weight: Schema.optional(Schema.Literal(0, 1))
}).annotations({ identifier: "TrainingChatMessage" })

/**
 * One line of a `conversations` dataset, in the chat fine-tuning format that
 * OpenAI and others accept: `{"messages": [{"role": "user", "content": "..."}, ...]}`,
 * ending with an `assistant` message. Other top-level fields the provider
 * understands (`tools`, `parallel_tool_calls`) are tolerated and uploaded as they are.
 */
export const ConversationRow = Schema.Struct({
  messages: Schema.Array(ChatMessage).pipe(Schema.minItems(2), Schema.maxItems(500)),
  split: Schema.optional(Schema.Literal("train", "test"))
}).annotations({ identifier: "ConversationRow" })
export type ConversationRow = typeof ConversationRow.Type
