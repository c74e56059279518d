import { Effect, Layer, Option, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"
import { MetricsToken } from "../../config/Settings.js"
import { Unauthenticated } from "../../domain/HttpErrors.js"
import { MetricsAuth } from "./MetricsAuth.js"

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** `/metrics` is open without a configured token (development) and needs it as a bearer token otherwise. */
export const MetricsAuthLive = Layer.effect(
  MetricsAuth,
  Effect.map(MetricsToken, (token) =>
    MetricsAuth.of({
      metricsToken: (given) =>
        Option.match(token, {
          onNone: () => Effect.void,
          onSome: (expected) =>
            sameSecret(Redacted.value(given), Redacted.value(expected))
              ? Effect.void
              : Effect.fail(new Unauthenticated({ message: "/metrics needs Authorization: Bearer <METRICS_TOKEN>" }))
        })
    }))
)
