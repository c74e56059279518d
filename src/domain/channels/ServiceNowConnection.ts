import { Model } from "@effect/sql"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"

/**
 * A ServiceNow instance (`{instance}.service-now.com`), an integration user and
 * its password, and the secret the instance's business rule signs its
 * callbacks with (Standard Webhooks).
 */
export const ServiceNowCredentials = Schema.Struct({
  instance: Schema.String.pipe(Schema.pattern(/^[a-z0-9][a-z0-9-]{0,62}$/)),
  user: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  password: SecretName,
  webhookSecret: SecretName
}).annotations({ identifier: "ServiceNowCredentials" })

/** ServiceNow's 1 (high) to 3 (low) scale of urgency and impact. */
export const ServiceNowLevel = Schema.Literal(1, 2, 3)

/** How a handoff becomes an incident: assignment group, category, urgency and impact. */
export const ServiceNowSettings = Schema.Struct({
  assignmentGroup: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
  category: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
  urgency: Schema.optionalWith(ServiceNowLevel, { default: () => 3 as const }),
  impact: Schema.optionalWith(ServiceNowLevel, { default: () => 3 as const })
}).annotations({ identifier: "ServiceNowSettings" })

/** IT service management: a handoff creates a ServiceNow incident; its updates come back to the conversation. */
export class ServiceNowConnection extends Model.Class<ServiceNowConnection>("ServiceNowConnection")({
  ...connectionFields,
  kind: Schema.Literal("servicenow"),
  credentials: ServiceNowCredentials,
  settings: Schema.optionalWith(ServiceNowSettings, { default: () => ({ urgency: 3 as const, impact: 3 as const }) })
}) {}
