/**
 * The Standard Webhooks check of public chain ingress: the chain its URL
 * names, the delivery's `webhook-id` and `webhook-timestamp` headers, and the
 * raw body (read once: the handler decodes the same cached text), verified
 * with the chain's secret (`Chains.verifyDelivery`). Replays of an accepted
 * `webhook-id` are the handler's to refuse: only a verified delivery learns
 * which run the id started.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { InvalidSignature } from "../../domain/Signature.js"
import { Chains } from "../../services/workflows/Chains.js"
import { IngressSignature } from "./IngressSignature.js"

const PATH = /^\/v1\/public\/workflow-chains\/([^/?#]+)\/([^/?#]+)\/ingress(?:[?#]|$)/

const refused = (message: string) => new InvalidSignature({ scheme: "standard-webhooks", message })

export const IngressSignatureLive = Layer.effect(
  IngressSignature,
  Effect.gen(function*() {
    const chains = yield* Chains
    return IngressSignature.of({
      standardWebhooks: (credential) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const place = PATH.exec(request.url)
          if (place === null) return yield* refused("not a chain ingress address")
          const id = request.headers["webhook-id"]
          const timestamp = request.headers["webhook-timestamp"]
          const signature = Redacted.value(credential)
          if (id === undefined || timestamp === undefined || signature.length === 0) {
            return yield* refused("webhook-id, webhook-timestamp and webhook-signature are all required")
          }
          if (!/^\d{1,15}$/.test(timestamp)) return yield* refused("webhook-timestamp is not Unix seconds")
          const body = yield* Effect.orElse(request.text, () => Effect.fail(refused("the body could not be read")))
          yield* chains.verifyDelivery(
            decodeURIComponent(place[1]!),
            decodeURIComponent(place[2]!),
            { id, timestamp: Number(timestamp), body },
            signature
          )
        }).pipe(Effect.withSpan("IngressSignature.verify"))
    })
  })
)
