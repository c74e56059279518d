import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/**
 * A Genesys Cloud Open Messaging message to Parley's endpoint: an agent's
 * reply (`Text`, `Structured`), a delivery `Receipt` or an `Event` (typing,
 * presence). `channel.to.id` is the end user Parley introduced. Signed with
 * `X-Hub-Signature-256`.
 */
export const GenesysOpenMessage = Schema.Struct({
  id: Schema.String,
  channel: Schema.Struct({
    platform: Schema.Literal("Open"),
    type: Schema.String,
    messageId: Schema.optional(Schema.String),
    to: Schema.Struct({ id: Schema.String }),
    from: Schema.optional(
      Schema.Struct({ id: Schema.optional(Schema.String), nickname: Schema.optional(Schema.String) })
    ),
    time: Schema.String
  }),
  type: Schema.Literal("Text", "Structured", "Receipt", "Event"),
  text: Schema.optional(Schema.String),
  /** Rich content (quick replies, attachments): provider-defined objects. */
  content: Schema.optional(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  status: Schema.optional(Schema.String),
  direction: Schema.Literal("Outbound"),
  originatingEntity: Schema.optional(Schema.Literal("Human", "Bot"))
}).annotations({ identifier: "GenesysOpenMessage" })
export type GenesysOpenMessage = typeof GenesysOpenMessage.Type

/**
 * An Amazon SNS HTTPS delivery. SNS posts JSON as `text/plain`, signs it inside
 * the body (`Signature`, `SigningCertURL`), and first sends a
 * `SubscriptionConfirmation` whose `SubscribeURL` must be fetched.
 */
export const SnsMessage = Schema.Struct({
  Type: Schema.Literal("Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"),
  MessageId: Schema.String,
  TopicArn: Schema.String,
  Subject: Schema.optional(Schema.NullOr(Schema.String)),
  Message: Schema.String,
  Timestamp: Schema.String,
  SignatureVersion: Schema.Literal("1", "2"),
  Signature: Schema.String,
  SigningCertURL: Schema.String,
  SubscribeURL: Schema.optional(Schema.String),
  UnsubscribeURL: Schema.optional(Schema.String),
  Token: Schema.optional(Schema.String)
}).annotations({ identifier: "SnsMessage" })
export type SnsMessage = typeof SnsMessage.Type

/** The body of an Amazon Connect inbound request: an SNS delivery, JSON inside a `text/plain` body. */
export const AmazonConnectDelivery = Schema.parseJson(SnsMessage).pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain" }),
  Schema.annotations({ identifier: "AmazonConnectDelivery" })
)

/**
 * The `Message` of an SNS notification from Amazon Connect contact streaming:
 * an agent's chat message, an event (joined, left, typing, ended) or an attachment.
 */
export const AmazonConnectStreamingMessage = Schema.parseJson(
  Schema.Struct({
    Id: Schema.String,
    Type: Schema.Literal("MESSAGE", "EVENT", "ATTACHMENT", "MESSAGEMETADATA"),
    ContentType: Schema.String,
    Content: Schema.optional(Schema.String),
    ParticipantRole: Schema.optional(Schema.Literal("AGENT", "CUSTOMER", "SYSTEM", "CUSTOM_BOT", "SUPERVISOR")),
    ParticipantId: Schema.optional(Schema.String),
    DisplayName: Schema.optional(Schema.String),
    ContactId: Schema.String,
    InitialContactId: Schema.optional(Schema.String),
    AbsoluteTime: Schema.String
  })
).annotations({ identifier: "AmazonConnectStreamingMessage" })
