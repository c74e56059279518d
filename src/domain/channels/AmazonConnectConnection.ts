import { Model } from "@effect/sql"
import { Schema } from "effect"
import { SecretName } from "../workspace/Ids.js"
import { connectionFields } from "./ConnectionFields.js"

/** An AWS region name such as `us-east-1` or `eu-west-2`. */
export const AwsRegion = Schema.String.pipe(Schema.pattern(/^[a-z]{2}(-gov)?-[a-z]+-[0-9]$/))

/**
 * An Amazon Connect instance and the IAM access key (both halves in the vault)
 * that may start chats and stream them (`connect:StartChatContact`,
 * `connect:StartContactStreaming`).
 */
export const AmazonConnectCredentials = Schema.Struct({
  region: AwsRegion,
  instanceId: Schema.UUID,
  accessKeyId: SecretName,
  secretAccessKey: SecretName
}).annotations({ identifier: "AmazonConnectCredentials" })

/**
 * The contact flow a handoff starts, and the SNS topic chat messages are
 * streamed to; that topic's HTTPS subscription is this connection's inbound URL.
 */
export const AmazonConnectSettings = Schema.Struct({
  contactFlowId: Schema.UUID,
  snsTopicArn: Schema.String.pipe(Schema.pattern(/^arn:aws[a-z-]*:sns:[a-z0-9-]+:[0-9]{12}:[A-Za-z0-9_-]{1,256}$/))
}).annotations({ identifier: "AmazonConnectSettings" })

/** Contact-centre handoff to Amazon Connect chat. */
export class AmazonConnectConnection extends Model.Class<AmazonConnectConnection>("AmazonConnectConnection")({
  ...connectionFields,
  kind: Schema.Literal("amazon-connect"),
  credentials: AmazonConnectCredentials,
  settings: AmazonConnectSettings
}) {}
