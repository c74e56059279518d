import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotImplemented } from "../../domain/HttpErrors.js"
import { InvalidSignature } from "../../domain/Signature.js"

/**
 * Inbound provider traffic on `/v1/public/channels/*` is verified with the
 * provider's own signature scheme, chosen by the connection's kind.
 */
export class ChannelSignature extends HttpApiMiddleware.Tag<ChannelSignature>()("parley/http/ChannelSignature", {
  failure: Schema.Union(InvalidSignature, NotImplemented),
  security: {
    twilioSignature: HttpApiSecurity.apiKey({ in: "header", key: "X-Twilio-Signature" }).pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "Twilio: HMAC-SHA1 of the URL and sorted form parameters")
    ),
    zendeskSignature: HttpApiSecurity.apiKey({ in: "header", key: "X-Zendesk-Webhook-Signature" }).pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "Zendesk: HMAC-SHA256 of timestamp and body, base64")
    ),
    webhookSignature: HttpApiSecurity.apiKey({ in: "header", key: "webhook-signature" }).pipe(
      HttpApiSecurity.annotate(OpenApi.Description, "Standard Webhooks, for generic webhooks and voice gateways")
    )
  }
}) {}
