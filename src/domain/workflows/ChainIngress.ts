/**
 * Events into a chain. The public route is signed with Standard Webhooks
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 over
 * `id.timestamp.body` with the chain's secret, five-minute tolerance); each
 * accepted `webhook-id` is remembered per chain, and a delivery that repeats
 * one is refused with the run the first delivery started.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { JsonValue } from "../Json.js"
import { Slug } from "../Slug.js"
import { Chain, SecretHint } from "./Chain.js"
import { ChainRunId } from "./Ids.js"
import { EventType } from "./TriggerData.js"

/** A Standard Webhooks signing secret: `whsec_` and base64 of 24 to 64 random bytes. Shown once. */
export const IngressSecret = Schema.String.pipe(
  Schema.pattern(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/),
  Schema.annotations({
    identifier: "IngressSecret",
    description: "Shown once; store it in the sender",
    examples: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]
  })
)

/** The answer to a chain's creation: the chain and, this once, its ingress signing secret. */
export const ChainCreated = Schema.Struct({ ...Chain.json.fields, ingressSecret: IngressSecret }).annotations({
  identifier: "ChainCreated"
})

/** The answer to a secret rotation: the new secret, shown this once; the old one stops verifying at once. */
export const ChainIngressSecretRotated = Schema.Struct({
  slug: Slug,
  ingressSecret: IngressSecret,
  ingressSecretHint: SecretHint,
  ingressSecretRotatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "ChainIngressSecretRotated" })

/** An event delivered by an authenticated caller: its type and data, as in a Standard Webhooks payload. */
export const ChainEventRequest = Schema.Struct({
  type: EventType,
  data: Schema.optionalWith(JsonValue, { default: () => ({}) })
}).annotations({ identifier: "ChainEventRequest", parseOptions: { onExcessProperty: "error" } })

/** The Standard Webhooks headers of a public ingress delivery (verified by the `IngressSignature` middleware). */
export const PublicIngressHeaders = Schema.Struct({
  "webhook-id": Schema.String.pipe(
    Schema.pattern(/^[\x21-\x7e]{1,255}$/),
    Schema.annotations({ description: "The delivery's unique id; a repeated id is refused as a replay" })
  ),
  "webhook-timestamp": Schema.NumberFromString.pipe(
    Schema.int(),
    Schema.positive(),
    Schema.annotations({ description: "Unix seconds; refused outside five minutes of the server's clock" })
  ),
  "webhook-signature": Schema.String.pipe(
    Schema.pattern(/^[\x20-\x7e]{1,4096}$/),
    Schema.annotations({ description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures" })
  )
})

/**
 * The body of a public ingress delivery: any JSON. When it is an object with a
 * string `type` (the Standard Webhooks payload convention), that is the event type.
 */
export const PublicIngressPayload = JsonValue.annotations({ identifier: "PublicIngressPayload" })

/** The answer to a public delivery: the run it started, and nothing else of the chain. */
export const ChainIngressAccepted = Schema.Struct({
  runId: ChainRunId,
  status: Schema.Literal("queued")
}).annotations({ identifier: "ChainIngressAccepted" })

/** The chain does not accept public ingress (`ingressEnabled` is false). */
export class ChainIngressDisabled extends Schema.TaggedError<ChainIngressDisabled>()(
  "ChainIngressDisabled",
  { slug: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}

/** This `webhook-id` was already accepted for the chain; no second run starts. `runId` is the first one's. */
export class IngressReplayed extends Schema.TaggedError<IngressReplayed>()(
  "IngressReplayed",
  { webhookId: Schema.String, runId: ChainRunId, message: Schema.String },
  HttpApiSchema.annotations({ status: 409 })
) {}
