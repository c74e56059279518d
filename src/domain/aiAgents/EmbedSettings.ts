import { Schema } from "effect"
import { HttpsUrl } from "../Url.js"
import { AllowedOrigins } from "../WebOrigin.js"

/** A CSS hex colour: `#1f6feb`. */
export const HexColor = Schema.String.pipe(
  Schema.pattern(/^#[0-9a-fA-F]{6}$/),
  Schema.annotations({ identifier: "HexColor", examples: ["#1f6feb"] })
)

/** Which bottom corner of the page the widget's launcher sits in. */
export const WidgetPosition = Schema.Literal("bottom-right", "bottom-left").annotations({
  identifier: "WidgetPosition"
})

/**
 * The web widget's appearance and where it may run. Presentation only, so it
 * is not versioned: a change applies to the live widget at once.
 */
export const EmbedSettings = Schema.Struct({
  /** The widget's header title; the agent's name when omitted. */
  title: Schema.optional(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(60))),
  primaryColor: Schema.optionalWith(HexColor, { default: () => "#1f6feb" }),
  position: Schema.optionalWith(WidgetPosition, { default: () => "bottom-right" as const }),
  /** An https URL of the avatar image shown beside the agent's messages. */
  avatarUrl: Schema.optional(HttpsUrl),
  /** Origins whose pages may call the public turn route (checked against `Origin`); `["*"]`, the default, allows any. */
  allowedOrigins: Schema.optionalWith(AllowedOrigins, { default: () => ["*"] })
}).annotations({ identifier: "EmbedSettings" })
export type EmbedSettings = typeof EmbedSettings.Type
