import { Schema } from "effect"

/** A short text the user sees (a greeting, a suggested prompt, a hand-off notice). */
const UserFacingText = (maxLength: number) => Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(maxLength))

/**
 * How an agent converses, beyond its instructions: what it says first, what it
 * suggests, how much history it sends to the model. Part of the draft, so a
 * change goes live with the next publish.
 */
export const ConversationSettings = Schema.Struct({
  /** The opening message the widget shows before the user writes (not sent to the model). */
  greeting: Schema.optional(UserFacingText(2000)),
  /** Conversation starters the widget offers. */
  suggestedPrompts: Schema.optionalWith(Schema.Array(UserFacingText(200)).pipe(Schema.maxItems(6)), {
    default: () => []
  }),
  /** How many earlier messages of the conversation are sent to the model with each turn. */
  historyWindow: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 200)), { default: () => 30 }),
  /** What the user is told when the conversation is handed to a human (the target is in agent-ops). */
  handoffMessage: Schema.optional(UserFacingText(1000)),
  /** What the user is told when an input guardrail blocks their message. */
  blockedMessage: Schema.optional(UserFacingText(1000))
}).annotations({ identifier: "ConversationSettings" })
export type ConversationSettings = typeof ConversationSettings.Type
