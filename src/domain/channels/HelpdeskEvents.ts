import { Schema } from "effect"

/** A comment on a Zendesk ticket: an agent's reply reaches the end user when it is public. */
export const ZendeskComment = Schema.Struct({
  id: Schema.Union(Schema.String, Schema.Number),
  body: Schema.String,
  is_public: Schema.Boolean,
  author: Schema.Struct({
    id: Schema.Union(Schema.String, Schema.Number),
    is_staff: Schema.Boolean,
    name: Schema.optional(Schema.String)
  })
}).annotations({ identifier: "ZendeskComment" })

/**
 * A Zendesk webhook event (`zen:event-type:ticket.comment_added`,
 * `zen:event-type:ticket.status_changed`, ...) for a ticket a handoff opened.
 * `subject` is `zen:ticket:{id}`; `detail` is the ticket. Signed with
 * `X-Zendesk-Webhook-Signature` over timestamp and body.
 */
export const ZendeskEvent = Schema.Struct({
  type: Schema.String.pipe(Schema.pattern(/^zen:event-type:[a-z_]+\.[a-z_]+$/)),
  account_id: Schema.Number.pipe(Schema.int()),
  id: Schema.String,
  time: Schema.String,
  zendesk_event_version: Schema.String,
  subject: Schema.String,
  detail: Schema.Struct({
    id: Schema.String,
    status: Schema.optional(Schema.String),
    external_id: Schema.optional(Schema.NullOr(Schema.String))
  }),
  event: Schema.Struct({
    comment: Schema.optional(ZendeskComment),
    current: Schema.optional(Schema.Unknown),
    previous: Schema.optional(Schema.Unknown)
  })
}).annotations({ identifier: "ZendeskEvent" })
export type ZendeskEvent = typeof ZendeskEvent.Type

/**
 * A ServiceNow callback about an incident a handoff created, in the shape
 * Parley's business-rule script posts (signed with Standard Webhooks):
 * `correlationId` is the reference Parley put on the incident.
 */
export const ServiceNowEvent = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  event: Schema.Literal("incident.updated", "incident.commented", "incident.resolved", "incident.closed"),
  correlationId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  incident: Schema.Struct({
    sysId: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{32}$/)),
    number: Schema.String.pipe(Schema.pattern(/^[A-Z]+[0-9]+$/)),
    state: Schema.String.pipe(Schema.maxLength(100)),
    shortDescription: Schema.optional(Schema.String.pipe(Schema.maxLength(4000)))
  }),
  comment: Schema.optional(Schema.Struct({
    author: Schema.String.pipe(Schema.maxLength(200)),
    text: Schema.String.pipe(Schema.maxLength(10_000)),
    /** Additional comments (customer-visible) rather than work notes. */
    customerVisible: Schema.Boolean
  }))
}).annotations({ identifier: "ServiceNowEvent" })
export type ServiceNowEvent = typeof ServiceNowEvent.Type
