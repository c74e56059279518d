import { Model } from "@effect/sql"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"
import { PhoneNumber } from "./Ids.js"
import { VoiceSettings } from "./VoiceSettings.js"

/** A Twilio SID: two letters naming the resource type and 32 hex digits. */
export const TwilioSid = (prefix: string) =>
  Schema.String.pipe(Schema.pattern(new RegExp(`^${prefix}[0-9a-fA-F]{32}$`)))

/**
 * The Twilio account: its SID and the vault secret holding its Auth Token,
 * which both calls Twilio's API and verifies `X-Twilio-Signature`.
 */
export const TwilioCredentials = Schema.Struct({
  accountSid: TwilioSid("AC"),
  authToken: SecretName
}).annotations({ identifier: "TwilioCredentials" })

const Numbers = Schema.optionalWith(Schema.Array(PhoneNumber).pipe(Schema.maxItems(100)), { default: () => [] })

/**
 * The numbers the connection answers on, per channel (SMS, WhatsApp senders,
 * voice), an optional Messaging Service to send through, and how calls are
 * spoken (required when there are voice numbers).
 */
export const TwilioSettings = Schema.Struct({
  smsNumbers: Numbers,
  whatsappNumbers: Numbers,
  voiceNumbers: Numbers,
  messagingServiceSid: Schema.optional(TwilioSid("MG")),
  voice: Schema.optional(VoiceSettings)
}).annotations({ identifier: "TwilioSettings" })

/** SMS, WhatsApp and voice through a Twilio account. */
export class TwilioConnection extends Model.Class<TwilioConnection>("TwilioConnection")({
  ...connectionFields,
  kind: Schema.Literal("twilio"),
  credentials: TwilioCredentials,
  settings: TwilioSettings
}) {}
