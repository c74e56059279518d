import { Schema } from "effect"
import { AmazonConnectDelivery, GenesysOpenMessage } from "./ContactCentreEvents.js"
import { ServiceNowEvent, ZendeskEvent } from "./HelpdeskEvents.js"
import { TwilioMessagingWebhook } from "./TwilioWebhooks.js"
import { WebhookInboundEvent } from "./WebhookEvent.js"

/**
 * The body of `POST /v1/public/channels/{kind}/{connection_id}`: the provider's
 * own payload. Twilio posts `application/x-www-form-urlencoded`, Amazon SNS
 * JSON as `text/plain`, the others `application/json`. Unknown fields are
 * tolerated (providers add fields without notice); the handler checks that the
 * payload is the one of the path's `kind`.
 */
export const InboundChannelPayload = Schema.Union(
  TwilioMessagingWebhook,
  ZendeskEvent,
  GenesysOpenMessage,
  AmazonConnectDelivery,
  ServiceNowEvent,
  WebhookInboundEvent
).annotations({ identifier: "InboundChannelPayload" })
export type InboundChannelPayload = typeof InboundChannelPayload.Type
