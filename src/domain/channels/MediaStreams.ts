/**
 * The Twilio Media Streams protocol, spoken on
 * `/v1/public/channels/voice/{connection_id}/ws` with Twilio and with
 * bring-your-own gateways: JSON text frames, each with an `event`. Audio is
 * base64 mu-law at 8 kHz, mono, without file headers; it decodes to bytes here.
 * Numeric counters travel as strings and decode to numbers.
 */
import { Schema } from "effect"
import { MediaFormat } from "./VoiceGateway.js"

const Counter = Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())
const StreamSid = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
const Mark = Schema.Struct({ name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)) })

/** The first frame: the socket is up. It has no `streamSid` or `sequenceNumber`. */
export const MediaStreamConnected = Schema.Struct({
  event: Schema.Literal("connected"),
  protocol: Schema.String,
  version: Schema.String
}).annotations({ identifier: "MediaStreamConnected" })

/** The stream starts: the call, the tracks sent, the format and the custom parameters of `<Stream>`. */
export const MediaStreamStart = Schema.Struct({
  event: Schema.Literal("start"),
  sequenceNumber: Counter,
  streamSid: StreamSid,
  start: Schema.Struct({
    accountSid: Schema.String,
    streamSid: StreamSid,
    callSid: Schema.String,
    tracks: Schema.Array(Schema.Literal("inbound", "outbound")),
    mediaFormat: MediaFormat,
    customParameters: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.String }), {
      default: () => ({})
    })
  })
}).annotations({ identifier: "MediaStreamStart" })

/** A chunk of audio: `chunk` counts from 1, `timestamp` is milliseconds since the stream started. */
export const MediaStreamMedia = Schema.Struct({
  event: Schema.Literal("media"),
  sequenceNumber: Counter,
  streamSid: StreamSid,
  media: Schema.Struct({
    track: Schema.Literal("inbound", "outbound"),
    chunk: Counter,
    timestamp: Counter,
    payload: Schema.Uint8ArrayFromBase64
  })
}).annotations({ identifier: "MediaStreamMedia" })

/** A key the caller pressed (bidirectional streams only). */
export const MediaStreamDtmf = Schema.Struct({
  event: Schema.Literal("dtmf"),
  sequenceNumber: Counter,
  streamSid: StreamSid,
  dtmf: Schema.Struct({
    track: Schema.Literal("inbound_track"),
    digit: Schema.String.pipe(Schema.pattern(/^[0-9*#A-D]$/))
  })
}).annotations({ identifier: "MediaStreamDtmf" })

/** The echo of a mark Parley sent: the audio before it finished playing (or was cleared). */
export const MediaStreamMarkEcho = Schema.Struct({
  event: Schema.Literal("mark"),
  sequenceNumber: Counter,
  streamSid: StreamSid,
  mark: Mark
}).annotations({ identifier: "MediaStreamMarkEcho" })

/** The stream has ended (the call ended, for bidirectional streams). */
export const MediaStreamStop = Schema.Struct({
  event: Schema.Literal("stop"),
  sequenceNumber: Counter,
  streamSid: StreamSid,
  stop: Schema.Struct({ accountSid: Schema.String, callSid: Schema.String })
}).annotations({ identifier: "MediaStreamStop" })

/** A frame from Twilio or the gateway to Parley. */
export const MediaStreamInbound = Schema.Union(
  MediaStreamConnected,
  MediaStreamStart,
  MediaStreamMedia,
  MediaStreamDtmf,
  MediaStreamMarkEcho,
  MediaStreamStop
).annotations({ identifier: "MediaStreamInbound" })
export type MediaStreamInbound = typeof MediaStreamInbound.Type

/** Audio for the caller to hear. */
export const MediaStreamSendMedia = Schema.Struct({
  event: Schema.Literal("media"),
  streamSid: StreamSid,
  media: Schema.Struct({ payload: Schema.Uint8ArrayFromBase64 })
}).annotations({ identifier: "MediaStreamSendMedia" })

/** A label after queued audio, echoed back once that audio has played. */
export const MediaStreamSendMark = Schema.Struct({
  event: Schema.Literal("mark"),
  streamSid: StreamSid,
  mark: Mark
}).annotations({ identifier: "MediaStreamSendMark" })

/** Drop all queued audio (barge-in); pending marks are echoed. */
export const MediaStreamClear = Schema.Struct({
  event: Schema.Literal("clear"),
  streamSid: StreamSid
}).annotations({ identifier: "MediaStreamClear" })

/** A frame from Parley to Twilio or the gateway. */
export const MediaStreamOutbound = Schema.Union(MediaStreamSendMedia, MediaStreamSendMark, MediaStreamClear)
  .annotations({
    identifier: "MediaStreamOutbound"
  })
export type MediaStreamOutbound = typeof MediaStreamOutbound.Type

/** One inbound WebSocket text frame, parsed and decoded. */
export const MediaStreamInboundFrame = Schema.parseJson(MediaStreamInbound)

/** One outbound WebSocket text frame, encoded to JSON. */
export const MediaStreamOutboundFrame = Schema.parseJson(MediaStreamOutbound)
