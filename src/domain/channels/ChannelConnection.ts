import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Name } from "../Name.js"
import { ListParams } from "../Pagination.js"
import { AmazonConnectConnection, AmazonConnectCredentials, AmazonConnectSettings } from "./AmazonConnectConnection.js"
import { ChannelTarget } from "./ChannelTarget.js"
import { ChannelStatus } from "./ConnectionFields.js"
import { GenesysConnection, GenesysCredentials, GenesysSettings } from "./GenesysConnection.js"
import { ChannelKind } from "./Ids.js"
import { ServiceNowConnection, ServiceNowCredentials, ServiceNowSettings } from "./ServiceNowConnection.js"
import { TwilioConnection, TwilioCredentials, TwilioSettings } from "./TwilioConnection.js"
import { VoiceGatewayConnection, VoiceGatewayCredentials, VoiceGatewaySettings } from "./VoiceGatewayConnection.js"
import { WebhookConnection, WebhookCredentials, WebhookSettings } from "./WebhookConnection.js"
import { ZendeskConnection, ZendeskCredentials, ZendeskSettings } from "./ZendeskConnection.js"

/**
 * A channel connection, discriminated on `kind`: each kind has its own exact
 * `credentials` (vault references by name, never values) and `settings`.
 */
export const ChannelConnection = Model.Union(
  TwilioConnection,
  ZendeskConnection,
  GenesysConnection,
  AmazonConnectConnection,
  ServiceNowConnection,
  WebhookConnection,
  VoiceGatewayConnection
)
export type ChannelConnection = typeof ChannelConnection.Type

/** A connection as the API shows it. */
export const ChannelConnectionJson = Schema.Union(
  TwilioConnection.json,
  ZendeskConnection.json,
  GenesysConnection.json,
  AmazonConnectConnection.json,
  ServiceNowConnection.json,
  WebhookConnection.json,
  VoiceGatewayConnection.json
).annotations({ identifier: "ChannelConnection" })

/** One kind's fields, refusing unknown ones (kept when the kind is a member of a union). */
const closed = <S extends Schema.Schema.Any>(schema: S): S => schema as S

/** A new connection, exact per kind; unknown fields are refused. */
export const ChannelConnectionCreate = Schema.Union(
  closed(TwilioConnection.jsonCreate),
  closed(ZendeskConnection.jsonCreate),
  closed(GenesysConnection.jsonCreate),
  closed(AmazonConnectConnection.jsonCreate),
  closed(ServiceNowConnection.jsonCreate),
  closed(WebhookConnection.jsonCreate),
  closed(VoiceGatewayConnection.jsonCreate)
).annotations({ identifier: "ChannelConnectionCreate", parseOptions: { onExcessProperty: "error" } })

const patchOf = <K extends ChannelKind, C extends Schema.Schema.Any, S extends Schema.Schema.Any>(
  kind: K,
  credentials: C,
  settings: S
) =>
  Schema.Struct({
    kind: Schema.Literal(kind),
    name: Schema.optional(Name),
    target: Schema.optional(ChannelTarget),
    enabled: Schema.optional(Schema.Boolean),
    credentials: Schema.optional(credentials),
    settings: Schema.optional(settings)
  })

/**
 * A partial update. `kind` is required and must be the connection's own (a
 * connection never changes kind): it selects the exact shape of `credentials`
 * and `settings`, each of which, when present, replaces the whole object.
 * Unknown fields are refused.
 */
export const ChannelConnectionPatch = Schema.Union(
  patchOf("twilio", TwilioCredentials, TwilioSettings),
  patchOf("zendesk", ZendeskCredentials, ZendeskSettings),
  patchOf("genesys", GenesysCredentials, GenesysSettings),
  patchOf("amazon-connect", AmazonConnectCredentials, AmazonConnectSettings),
  patchOf("servicenow", ServiceNowCredentials, ServiceNowSettings),
  patchOf("webhook", WebhookCredentials, WebhookSettings),
  patchOf("voice-gateway", VoiceGatewayCredentials, VoiceGatewaySettings)
).annotations({ identifier: "ChannelConnectionPatch", parseOptions: { onExcessProperty: "error" } })
export type ChannelConnectionPatch = typeof ChannelConnectionPatch.Type

/** The query of the connection list: a page, optionally one kind or status. */
export const ChannelConnectionListParams = Schema.Struct({
  ...ListParams.fields,
  kind: Schema.optional(ChannelKind),
  status: Schema.optional(ChannelStatus)
})
