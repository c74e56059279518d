import { Schema } from "effect"

/** A web origin (`https://shop.example.com`, `http://localhost:3000`), without path or trailing slash. */
export const WebOrigin = Schema.String.pipe(
  Schema.pattern(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/),
  Schema.maxLength(255),
  Schema.annotations({ identifier: "WebOrigin", description: "scheme://host[:port]" })
)

/** A CSS hex colour: `#1f6feb`. */
export const HexColor = Schema.String.pipe(
  Schema.pattern(/^#[0-9a-fA-F]{6}$/),
  Schema.annotations({ identifier: "HexColor" })
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
  avatarUrl: Schema.optional(Schema.String.pipe(Schema.pattern(/^https:\/\/\S+$/), Schema.maxLength(2048))),
  /** Origins whose pages may call the public turn route (checked against `Origin`); empty allows any. */
  allowedOrigins: Schema.optionalWith(Schema.Array(WebOrigin).pipe(Schema.maxItems(50)), { default: () => [] })
}).annotations({ identifier: "EmbedSettings" })
export type EmbedSettings = typeof EmbedSettings.Type
