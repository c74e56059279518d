import { Model } from "@effect/sql"
import { Schema } from "effect"
import { Email } from "../identity/Email.js"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"

/**
 * A Zendesk account: `{subdomain}.zendesk.com`, an agent's email with an API
 * token (basic auth `email/token`), and the signing secret of the Zendesk
 * webhook that posts ticket events (`X-Zendesk-Webhook-Signature`).
 */
export const ZendeskCredentials = Schema.Struct({
  subdomain: Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,62}$/)),
  email: Email,
  apiToken: SecretName,
  webhookSigningSecret: SecretName
}).annotations({ identifier: "ZendeskCredentials" })

/** How a handoff becomes a ticket: the group it is assigned to, its tags and priority. */
export const ZendeskSettings = Schema.Struct({
  handoffGroupId: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())),
  ticketTags: Schema.optionalWith(
    Schema.Array(Schema.String.pipe(Schema.pattern(/^[a-z0-9_\-/:]{1,80}$/))).pipe(Schema.maxItems(20)),
    { default: () => ["parley"] }
  ),
  ticketPriority: Schema.optionalWith(Schema.Literal("low", "normal", "high", "urgent"), { default: () => "normal" })
}).annotations({ identifier: "ZendeskSettings" })

/** Helpdesk handoff to Zendesk: a handoff opens a ticket; agents' replies come back as ticket events. */
export class ZendeskConnection extends Model.Class<ZendeskConnection>("ZendeskConnection")({
  ...connectionFields,
  kind: Schema.Literal("zendesk"),
  credentials: ZendeskCredentials,
  settings: Schema.optionalWith(ZendeskSettings, {
    default: () => ({ ticketTags: ["parley"], ticketPriority: "normal" as const })
  })
}) {}
