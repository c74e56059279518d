import { Model } from "@effect/sql"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"
import { VoiceSettings } from "./VoiceSettings.js"

/** The secret (`whsec_…`, in the vault) the gateway signs its call webhooks with (Standard Webhooks). */
export const VoiceGatewayCredentials = Schema.Struct({
  signingSecret: SecretName
}).annotations({ identifier: "VoiceGatewayCredentials" })

/** How the gateway's calls are spoken. */
export const VoiceGatewaySettings = Schema.Struct({
  voice: VoiceSettings
}).annotations({ identifier: "VoiceGatewaySettings" })

/**
 * A bring-your-own voice gateway (a SIP bridge, a contact-centre media fork):
 * it posts each call to the voice-gateway webhook and streams the call's audio
 * over the Twilio Media Streams protocol.
 */
export class VoiceGatewayConnection extends Model.Class<VoiceGatewayConnection>("VoiceGatewayConnection")({
  ...connectionFields,
  kind: Schema.Literal("voice-gateway"),
  credentials: VoiceGatewayCredentials,
  settings: VoiceGatewaySettings
}) {}
