import { Model } from "@effect/sql"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"

/**
 * A Genesys Cloud organisation: its region's domain (`mypurecloud.com`,
 * `euw2.pure.cloud`, ...), an OAuth client-credentials client, and the secret
 * the Open Messaging integration signs its webhooks with (`X-Hub-Signature-256`).
 */
export const GenesysCredentials = Schema.Struct({
  region: Schema.String.pipe(Schema.pattern(/^([a-z0-9-]+\.)*(mypurecloud\.[a-z.]+|pure\.cloud|us-gov-pure\.cloud)$/)),
  clientId: Schema.UUID,
  clientSecret: SecretName,
  webhookSecret: SecretName
}).annotations({ identifier: "GenesysCredentials" })

/** The Open Messaging integration conversations arrive through, and the queue a handoff goes to. */
export const GenesysSettings = Schema.Struct({
  openMessagingIntegrationId: Schema.UUID,
  handoffQueueId: Schema.optional(Schema.UUID)
}).annotations({ identifier: "GenesysSettings" })

/** Contact-centre handoff to Genesys Cloud through Open Messaging. */
export class GenesysConnection extends Model.Class<GenesysConnection>("GenesysConnection")({
  ...connectionFields,
  kind: Schema.Literal("genesys"),
  credentials: GenesysCredentials,
  settings: GenesysSettings
}) {}
