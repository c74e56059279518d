import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { NotImplemented } from "../../domain/HttpErrors.js"
import { InvalidSignature } from "../../domain/Signature.js"

/**
 * Public workflow-chain ingress is signed with the Standard Webhooks scheme:
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` (HMAC-SHA256 with the
 * chain's secret, five-minute tolerance, replayed ids refused).
 */
export class IngressSignature extends HttpApiMiddleware.Tag<IngressSignature>()("parley/http/IngressSignature", {
  failure: Schema.Union(InvalidSignature, NotImplemented),
  security: {
    standardWebhooks: HttpApiSecurity.apiKey({ in: "header", key: "webhook-signature" }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "Standard Webhooks: webhook-signature over `${webhook-id}.${webhook-timestamp}.${body}` with the chain's secret"
      )
    )
  }
}) {}
