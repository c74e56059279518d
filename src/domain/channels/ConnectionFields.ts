import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { Name } from "../Name.js"
import { HttpUrl } from "../Url.js"
import { ChannelTarget } from "./ChannelTarget.js"
import { ChannelConnectionId, WebSocketUrl } from "./Ids.js"

/** `active` works; `disabled` was switched off (`enabled: false`); `error` failed its last provider call. */
export const ChannelStatus = Schema.Literal("active", "disabled", "error").annotations({ identifier: "ChannelStatus" })
export type ChannelStatus = typeof ChannelStatus.Type

/** The last failure of a connection, cleared by the next success. */
export const ChannelError = Schema.Struct({
  code: Schema.Literal(
    "credentials-rejected",
    "secret-missing",
    "provider-unreachable",
    "delivery-failed",
    "signature-failed",
    "target-unavailable"
  ),
  message: Schema.String.pipe(Schema.maxLength(2000)),
  at: Schema.DateTimeUtc
}).annotations({ identifier: "ChannelError" })

/**
 * The URLs to configure at the provider, computed from Parley's public base URL:
 * where it posts events (`/v1/public/channels/{kind}/{id}`), its call webhook
 * (`/v1/public/channels/voice_gateway/{id}`) and the media stream
 * (`/v1/public/channels/voice/{id}/ws`); `null` where the kind has none.
 */
export const ChannelEndpoints = Schema.Struct({
  inboundUrl: Schema.NullOr(HttpUrl),
  voiceWebhookUrl: Schema.NullOr(HttpUrl),
  mediaStreamUrl: Schema.NullOr(WebSocketUrl)
}).annotations({ identifier: "ChannelEndpoints" })

const serverSet = Model.FieldExcept("jsonCreate", "jsonUpdate")

/** The fields every connection has, whatever its kind; each kind adds `kind`, `credentials` and `settings`. */
export const connectionFields = {
  id: Model.Generated(ChannelConnectionId),
  workspaceId: serverSet(WorkspaceId),
  name: Name,
  target: ChannelTarget,
  /** Switch a connection off without deleting it; inbound traffic is then refused. */
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  status: serverSet(ChannelStatus),
  lastError: serverSet(Schema.NullOr(ChannelError)),
  endpoints: Model.FieldOnly("json")(ChannelEndpoints),
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}
