import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { actorOf, CurrentPrincipal } from "../../domain/identity/Principal.js"
import { IngressReplayed } from "../../domain/workflows/ChainIngress.js"
import { ChainRuns } from "../../services/workflows/ChainRuns.js"
import { Chains } from "../../services/workflows/Chains.js"
import { Api } from "../Api.js"

/** Only a start with a `webhook-id` can be a replayed delivery. */
const withoutWebhookId = <A, E, R>(start: Effect.Effect<A, E | IngressReplayed, R>): Effect.Effect<A, E, R> =>
  Effect.catchIf(start, (error): error is IngressReplayed => error instanceof IngressReplayed, Effect.die) as never

/** Chains, their signing secret, and their durable runs. */
export const ChainsHttpLive = HttpApiBuilder.group(Api, "chains", (handlers) =>
  Effect.gen(function*() {
    const chains = yield* Chains
    const runs = yield* ChainRuns

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => chains.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const { chain, ingressSecret } = yield* chains.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
          return { ...chain, ingressSecret }
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => chains.get(principal, path.slug)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* chains.update(
            yield* CurrentPrincipal,
            path.slug,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* chains.delete(yield* CurrentPrincipal, path.slug, yield* CurrentOrigin)
        }))
      .handle("rotateIngressSecret", ({ path }) =>
        Effect.gen(function*() {
          const rotated = yield* chains.rotateSecret(yield* CurrentPrincipal, path.slug, yield* CurrentOrigin)
          return {
            slug: rotated.slug,
            ingressSecret: rotated.secret,
            ingressSecretHint: rotated.hint,
            ingressSecretRotatedAt: DateTime.unsafeFromDate(rotated.at)
          }
        }))
      .handle("run", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const chain = yield* chains.get(principal, path.slug)
          return yield* runs.start(chain, {
            trigger: principal._tag === "User" ? "manual" : "api",
            startedBy: actorOf(principal),
            input: payload.input,
            eventType: null,
            idempotencyKey: headers["idempotency-key"],
            webhookId: undefined
          }).pipe(withoutWebhookId)
        }))
      .handle("ingress", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const chain = yield* chains.get(principal, path.slug)
          return yield* runs.start(chain, {
            trigger: "ingress",
            startedBy: actorOf(principal),
            input: { type: payload.type, data: payload.data },
            eventType: payload.type,
            idempotencyKey: headers["idempotency-key"],
            webhookId: undefined
          }).pipe(withoutWebhookId)
        }))
      .handle("listRuns", ({ path, urlParams }) =>
        Effect.gen(function*() {
          return yield* runs.list(yield* chains.get(yield* CurrentPrincipal, path.slug), urlParams)
        }))
      .handle("getRun", ({ path }) =>
        Effect.gen(function*() {
          return yield* runs.detail(yield* chains.get(yield* CurrentPrincipal, path.slug), path.run_id)
        }))
      .handle("resumeRun", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const chain = yield* chains.get(yield* CurrentPrincipal, path.slug)
          return yield* runs.resume(chain, path.run_id, payload, headers["idempotency-key"])
        }))
      .handle("cancelRun", ({ path }) =>
        Effect.gen(function*() {
          return yield* runs.cancel(yield* chains.get(yield* CurrentPrincipal, path.slug), path.run_id)
        }))
  }))
