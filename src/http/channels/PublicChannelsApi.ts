import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { ChannelConnectionInactive, ChannelConnectionNotFound } from "../../domain/channels/ChannelErrors.js"
import { ChannelConnectionId, InboundChannelKind } from "../../domain/channels/Ids.js"
import { InboundChannelPayload } from "../../domain/channels/InboundPayload.js"
import { Twiml, TWIML_CONTENT_TYPE, TWIML_IDENTIFIER } from "../../domain/channels/TwilioWebhooks.js"
import {
  MediaStreamParams,
  UpgradeRequired,
  VoiceGatewayRequest,
  VoiceNotEnabled,
  VoiceStreamInstruction
} from "../../domain/channels/VoiceGateway.js"
import { ChannelSignature } from "../middleware/ChannelSignature.js"
import { transformOperation } from "../OperationTransform.js"

const kind = HttpApiSchema.param("kind", InboundChannelKind)
const connectionId = HttpApiSchema.param("connection_id", ChannelConnectionId)

/**
 * HttpApi documents one media type per status; the voice-gateway answer has
 * two at 200 (JSON for gateways, TwiML for Twilio), so split the union it
 * documents under `application/json` into one entry per media type.
 */
const jsonOrTwiml = transformOperation((operation) => {
  const ok = operation.responses[200] as any
  const members: ReadonlyArray<any> | undefined = ok?.content?.["application/json"]?.schema?.anyOf
  const isTwiml = (member: any) => member.$ref === `#/components/schemas/${TWIML_IDENTIFIER}`
  const json = members?.find((member) => !isTwiml(member))
  const xml = members?.find(isTwiml)
  if (json === undefined || xml === undefined) return operation
  return {
    ...operation,
    responses: {
      ...operation.responses,
      200: {
        description: "Where to stream the call: JSON for a gateway, TwiML for Twilio",
        content: { "application/json": { schema: json }, [TWIML_CONTENT_TYPE]: { schema: xml } }
      }
    }
  }
})

const signatures = "Verified before the body is decoded, by the connection's kind: `twilio` with "
  + "`X-Twilio-Signature` (HMAC-SHA1 of the URL and the sorted form parameters, with the Auth Token), "
  + "`zendesk` with `X-Zendesk-Webhook-Signature` (HMAC-SHA256 of timestamp and body), `genesys` with "
  + "`X-Hub-Signature-256`, `amazon-connect` with the SNS signature inside the body, `servicenow`, `webhook` "
  + "and voice gateways with Standard Webhooks. The verifier reads the raw body as text "
  + "(`HttpServerRequest.text`, which the server caches), so the decoder then parses the very bytes that were signed."

/** Provider callbacks (`/v1/public/channels`): inbound events, voice-gateway webhooks and media streams. */
export class PublicChannelsApi extends HttpApiGroup.make("publicChannels")
  .add(
    HttpApiEndpoint.post("voiceGateway")`/public/channels/voice_gateway/${connectionId}`
      .setPayload(VoiceGatewayRequest)
      .addSuccess(VoiceStreamInstruction)
      .addSuccess(Twiml)
      .addError(ChannelConnectionNotFound)
      .addError(ChannelConnectionInactive)
      .addError(VoiceNotEnabled)
      .annotate(OpenApi.Summary, "A call webhook: answers where to stream the call's audio")
      .annotate(
        OpenApi.Description,
        "Twilio posts its voice webhook (form-encoded) and gets TwiML, `text/xml`: "
          + "`<Response><Connect><Stream url=\"wss://…/v1/public/channels/voice/{connection_id}/ws\"/></Connect>"
          + "</Response>`. A `voice-gateway` connection's gateway posts `VoiceGatewayCall` (JSON) and gets "
          + "`VoiceStreamInstruction` (JSON). The connection's kind decides the answer.\n\n" + signatures
      )
      .pipe(jsonOrTwiml)
  )
  .add(
    HttpApiEndpoint.post("receive")`/public/channels/${kind}/${connectionId}`
      .setPayload(InboundChannelPayload)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(ChannelConnectionNotFound)
      .addError(ChannelConnectionInactive)
      .annotate(OpenApi.Summary, "Inbound provider traffic (messages, replies, status callbacks)")
      .annotate(
        OpenApi.Description,
        "The provider's own payload: Twilio's messaging webhook (form-encoded), Zendesk ticket events, Genesys "
          + "Open Messaging, Amazon Connect through SNS (`text/plain`), ServiceNow incident callbacks, or a "
          + "generic webhook event. Answers 204 once the event is queued: replies go out through the provider's "
          + "API, never in this response. `{kind}` must be the connection's kind.\n\n" + signatures
      )
  )
  .middlewareEndpoints(ChannelSignature)
  .add(
    HttpApiEndpoint.get("voiceStream")`/public/channels/voice/${connectionId}/ws`
      .setUrlParams(MediaStreamParams)
      .addSuccess(HttpApiSchema.Empty(101))
      .addError(UpgradeRequired)
      .addError(ChannelConnectionNotFound)
      .addError(ChannelConnectionInactive)
      .addError(VoiceNotEnabled)
      .annotate(OpenApi.Summary, "The media stream of a call (WebSocket)")
      .annotate(
        OpenApi.Description,
        "A WebSocket upgrade (101 Switching Protocols); a request without `Upgrade: websocket` gets 426. "
          + "The socket speaks the Twilio Media Streams protocol: JSON text frames with an `event`. In: "
          + "`connected`, `start` (call, tracks, custom parameters), `media` (base64 mu-law, 8 kHz, mono), "
          + "`dtmf`, `mark` (echo of a played mark) and `stop`. Out: `media` (the bot's speech), `mark` (to learn "
          + "when audio has played) and `clear` (barge-in: drop queued audio). Twilio signs the handshake with "
          + "`X-Twilio-Signature`; a gateway presents the `token` from its `VoiceStreamInstruction`. The "
          + "handshake is verified in the handler, after the upgrade check, so a plain GET learns it needs one."
      )
      .pipe(transformOperation((operation) => ({ ...operation, security: [{ twilioSignature: [] }] })))
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Public channels")
  .annotate(
    OpenApi.Description,
    "Called by providers, not by users: every request is verified with its provider's signature scheme."
  )
{}
