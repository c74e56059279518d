import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** The media type Twilio expects instructions (TwiML) in. */
export const TWIML_CONTENT_TYPE = "text/xml"

const Field = Schema.String.pipe(Schema.maxLength(4096))

/** Twilio sends more parameters than are typed here (`MediaUrl0`, `FromCity`, ...); they are kept as strings. */
const rest = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * Twilio's messaging webhook, form-encoded: an incoming SMS or WhatsApp
 * message (with `Body`), or a status callback for one Parley sent (with
 * `MessageStatus`). `From`/`To` are E.164 numbers, prefixed `whatsapp:` for WhatsApp.
 */
export const TwilioMessagingWebhook = Schema.Struct(
  {
    AccountSid: Field,
    MessageSid: Field,
    From: Field,
    To: Field,
    Body: Schema.optional(Schema.String.pipe(Schema.maxLength(65_536))),
    NumMedia: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())),
    MessagingServiceSid: Schema.optional(Field),
    ProfileName: Schema.optional(Field),
    WaId: Schema.optional(Field),
    MessageStatus: Schema.optional(Field),
    ErrorCode: Schema.optional(Field)
  },
  rest
).pipe(
  HttpApiSchema.withEncoding({ kind: "UrlParams" }),
  Schema.annotations({ identifier: "TwilioMessagingWebhook" })
)
export type TwilioMessagingWebhook = typeof TwilioMessagingWebhook.Type

/** The states of a Twilio call, as its voice webhook reports them. */
export const TwilioCallStatus = Schema.Literal(
  "queued",
  "ringing",
  "in-progress",
  "completed",
  "busy",
  "failed",
  "no-answer",
  "canceled"
)

/** Twilio's voice webhook for an incoming call (form-encoded): the call, who calls whom, and its state. */
export const TwilioVoiceWebhook = Schema.Struct(
  {
    AccountSid: Field,
    CallSid: Field,
    From: Field,
    To: Field,
    CallStatus: TwilioCallStatus,
    Direction: Field,
    ApiVersion: Schema.optional(Field),
    CallerName: Schema.optional(Field)
  },
  rest
).pipe(
  HttpApiSchema.withEncoding({ kind: "UrlParams" }),
  Schema.annotations({ identifier: "TwilioVoiceWebhook" })
)
export type TwilioVoiceWebhook = typeof TwilioVoiceWebhook.Type

/** The OpenAPI component name of `Twiml`. */
export const TWIML_IDENTIFIER = "Twiml"

/**
 * A TwiML document, answered as `text/xml`, e.g.
 * `<Response><Connect><Stream url="wss://…/v1/public/channels/voice/{id}/ws"/></Connect></Response>`.
 */
export const Twiml = Schema.String.pipe(
  Schema.pattern(/^\s*(<\?xml[^>]*\?>\s*)?<Response[\s/>]/),
  HttpApiSchema.withEncoding({ kind: "Text", contentType: TWIML_CONTENT_TYPE }),
  Schema.annotations({
    identifier: TWIML_IDENTIFIER,
    description: "A TwiML document (text/xml)",
    examples: ["<Response><Say>Hello</Say></Response>"]
  })
)
