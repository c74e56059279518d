import { Schema } from "effect"

/** A channel connection: one provider account bound to an Assistant deployment or a live AI agent. */
export const ChannelConnectionId = Schema.UUID.pipe(Schema.brand("ChannelConnectionId"))
export type ChannelConnectionId = typeof ChannelConnectionId.Type

/** The providers a connection can bind. */
export const ChannelKind = Schema.Literal(
  "twilio",
  "zendesk",
  "genesys",
  "amazon-connect",
  "servicenow",
  "webhook",
  "voice-gateway"
).annotations({ identifier: "ChannelKind" })
export type ChannelKind = typeof ChannelKind.Type

/**
 * The `{kind}` of `POST /v1/public/channels/{kind}/{connection_id}`: every kind
 * whose provider posts events to Parley (a voice gateway calls
 * `/public/channels/voice_gateway/{connection_id}` instead).
 */
export const InboundChannelKind = Schema.Literal(
  "twilio",
  "zendesk",
  "genesys",
  "amazon-connect",
  "servicenow",
  "webhook"
).annotations({ identifier: "InboundChannelKind" })
export type InboundChannelKind = typeof InboundChannelKind.Type

/** A phone number in E.164 form, e.g. `+14155550100`. */
export const PhoneNumber = Schema.String.pipe(
  Schema.pattern(/^\+[1-9][0-9]{1,14}$/),
  Schema.annotations({ identifier: "E164PhoneNumber", description: "E.164", examples: ["+14155550100" as never] })
)

/** An absolute WebSocket URL (`wss://` in production). */
export const WebSocketUrl = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.pattern(/^wss?:\/\/[^\s/?#]+[^\s]*$/),
  Schema.annotations({ identifier: "ChannelWebSocketUrl", examples: ["wss://voice.example.com/stream"] })
)
