import { HttpApiBuilder } from "@effect/platform"
import { Effect, Schema } from "effect"
import { ChainIngressDisabled } from "../../domain/workflows/ChainIngress.js"
import { EventType } from "../../domain/workflows/TriggerData.js"
import { ChainRuns } from "../../services/workflows/ChainRuns.js"
import { Chains } from "../../services/workflows/Chains.js"
import { Api } from "../Api.js"

const isEventType = Schema.is(EventType)

/** The event type of a public payload: its string `type`, when it is one (Standard Webhooks' convention). */
const eventTypeOf = (payload: unknown): string | null => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null
  const type = (payload as { readonly type?: unknown }).type
  return isEventType(type) ? type : null
}

/** Signed public deliveries (verified by `IngressSignatureLive` before this runs). */
export const PublicChainsHttpLive = HttpApiBuilder.group(Api, "publicChains", (handlers) =>
  Effect.gen(function*() {
    const chains = yield* Chains
    const runs = yield* ChainRuns

    return handlers.handle("ingress", ({ headers, path, payload }) =>
      Effect.gen(function*() {
        const chain = yield* chains.findPublic(path.workspace_slug, path.chain_slug).pipe(
          // The signature check found it a moment ago; a chain deleted since is as if never there.
          Effect.catchTag("ChainNotFound", Effect.die)
        )
        if (!chain.ingressEnabled) {
          return yield* new ChainIngressDisabled({
            slug: chain.slug,
            message: "This chain does not accept public ingress; enable it with ingressEnabled"
          })
        }
        const run = yield* runs.start(chain, {
          trigger: "ingress",
          startedBy: null,
          input: payload,
          eventType: eventTypeOf(payload),
          idempotencyKey: undefined,
          webhookId: headers["webhook-id"]
        }).pipe(Effect.catchTag("IdempotencyKeyReused", Effect.die))
        return { runId: run.id, status: "queued" as const }
      }))
  }))
