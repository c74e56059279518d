import { Model } from "@effect/sql"
import { Schema } from "effect"
import { HttpUrl } from "../Url.js"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"

/**
 * Where Parley posts the bot's messages, and the secret (`whsec_…`, in the
 * vault) that signs both directions with the Standard Webhooks scheme.
 */
export const WebhookCredentials = Schema.Struct({
  outboundUrl: HttpUrl,
  signingSecret: SecretName
}).annotations({ identifier: "WebhookCredentials" })

/** An event Parley posts to a webhook connection's outbound URL. */
export const WebhookOutboundEvent = Schema.Literal("message.created", "handoff.requested", "conversation.ended")

/** Which events to post, and how long the receiver has to answer each delivery. */
export const WebhookSettings = Schema.Struct({
  events: Schema.optionalWith(Schema.Array(WebhookOutboundEvent).pipe(Schema.minItems(1), Schema.maxItems(3)), {
    default: () => ["message.created", "handoff.requested", "conversation.ended"] as const
  }),
  timeoutMs: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1000, 30_000)), {
    default: () => 10_000
  })
}).annotations({ identifier: "WebhookSettings" })

/** A generic channel: any system that posts signed messages in and receives signed messages out. */
export class WebhookConnection extends Model.Class<WebhookConnection>("WebhookConnection")({
  ...connectionFields,
  kind: Schema.Literal("webhook"),
  credentials: WebhookCredentials,
  settings: Schema.optionalWith(WebhookSettings, {
    default: () => ({
      events: ["message.created", "handoff.requested", "conversation.ended"] as const,
      timeoutMs: 10_000
    })
  })
}) {}
