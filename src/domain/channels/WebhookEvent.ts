import { Schema } from "effect"

const Ref = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

/**
 * What a generic webhook connection posts to Parley, signed with Standard
 * Webhooks: a user's message in a conversation the sender identifies, or the
 * end of that conversation. `id` is the event's own id (replays are refused).
 */
export const WebhookInboundEvent = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("message"),
    id: Ref,
    conversationId: Ref,
    user: Schema.Struct({ id: Ref, name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))) }),
    text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)),
    /** Passed to the bot as conversation variables. */
    metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
  }),
  Schema.Struct({ type: Schema.Literal("conversation.ended"), id: Ref, conversationId: Ref })
).annotations({ identifier: "WebhookInboundEvent" })
export type WebhookInboundEvent = typeof WebhookInboundEvent.Type
