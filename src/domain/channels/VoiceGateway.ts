import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { ChannelConnectionId, ChannelKind, WebSocketUrl } from "./Ids.js"
import { TwilioVoiceWebhook } from "./TwilioWebhooks.js"

/**
 * A bring-your-own gateway's call webhook (JSON, signed with Standard
 * Webhooks): a call has arrived (or is being placed) and needs a media stream.
 */
export const VoiceGatewayCall = Schema.Struct({
  callId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  from: Schema.String.pipe(Schema.maxLength(256)),
  to: Schema.String.pipe(Schema.maxLength(256)),
  direction: Schema.Literal("inbound", "outbound"),
  /** Echoed back in the stream's `start.customParameters`. */
  customParameters: Schema.optional(
    Schema.Record({ key: Schema.String.pipe(Schema.maxLength(100)), value: Schema.String.pipe(Schema.maxLength(500)) })
  )
}).annotations({ identifier: "VoiceGatewayCall" })
export type VoiceGatewayCall = typeof VoiceGatewayCall.Type

/** The body of `POST /v1/public/channels/voice_gateway/{connection_id}`: Twilio's voice webhook or a gateway's call. */
export const VoiceGatewayRequest = Schema.Union(TwilioVoiceWebhook, VoiceGatewayCall).annotations({
  identifier: "VoiceGatewayRequest"
})
export type VoiceGatewayRequest = typeof VoiceGatewayRequest.Type

/** The audio format of every media stream: mu-law, 8 kHz, mono. */
export const MediaFormat = Schema.Struct({
  encoding: Schema.Literal("audio/x-mulaw"),
  sampleRate: Schema.Literal(8000),
  channels: Schema.Literal(1)
}).annotations({ identifier: "MediaStreamFormat" })

/**
 * The answer to a gateway's call webhook (JSON): open a WebSocket to
 * `streamUrl` before `expiresAt` and speak the Twilio Media Streams protocol.
 * The URL carries a single-use stream token, since a gateway may not be able to
 * sign its WebSocket handshake. (Twilio connections get TwiML instead.)
 */
export const VoiceStreamInstruction = Schema.Struct({
  streamUrl: WebSocketUrl,
  protocol: Schema.Literal("twilio-media-streams"),
  mediaFormat: MediaFormat,
  expiresAt: Schema.DateTimeUtc,
  customParameters: Schema.Record({ key: Schema.String, value: Schema.String })
}).annotations({ identifier: "VoiceStreamInstruction" })
export type VoiceStreamInstruction = typeof VoiceStreamInstruction.Type

/** A single-use token that admits one media stream; minted by the voice-gateway webhook, valid for minutes. */
export const StreamToken = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{20,200}$/),
  Schema.annotations({ identifier: "MediaStreamToken", examples: ["c2Vzc2lvbi0xMjM0NTY3ODkw"] })
)

/** The query of the media-stream route. */
export const MediaStreamParams = Schema.Struct({
  /** A gateway's stream token from `VoiceStreamInstruction.streamUrl`; Twilio signs the handshake instead. */
  token: Schema.optional(StreamToken)
})

/** The connection has no voice: not a `twilio` connection with voice settings, nor a `voice-gateway`. */
export class VoiceNotEnabled extends Schema.TaggedError<VoiceNotEnabled>()(
  "VoiceNotEnabled",
  { connectionId: ChannelConnectionId, kind: ChannelKind, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** The media-stream route was called without a WebSocket upgrade (`Upgrade: websocket`). */
export class UpgradeRequired extends Schema.TaggedError<UpgradeRequired>()(
  "UpgradeRequired",
  { upgrade: Schema.Literal("websocket"), message: Schema.String },
  HttpApiSchema.annotations({ status: 426, description: "Connect with a WebSocket upgrade" })
) {}
