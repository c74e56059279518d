/**
 * The events a chain run sends to its chain's `eventsUrl`: `chain.run.paused`,
 * `chain.run.succeeded`, `chain.run.failed` and `chain.run.cancelled`, each a
 * Standard Webhooks delivery signed with the chain's secret (the one its
 * ingress verifies), through the outbound address rule. The `webhook-id` is
 * made of the run, its generation and what happened, so a delivery sent
 * again (an activity repeated after a crash, a retry) carries the same id and
 * the receiver can drop it. A receiver that fails is tried three times (after
 * 1 and 2 seconds) and then given up with a warning: an event never fails or
 * holds up the run.
 */
import { Clock, Duration, Effect, Option, Schedule } from "effect"
import type { JsonValue } from "../../domain/Json.js"
import { signedHeaders } from "../../domain/webhooks/StandardWebhooks.js"
import type { ChainId, ChainRunId } from "../../domain/workflows/Ids.js"
import { ChainRepo } from "../../persistence/workflows/ChainRepo.js"
import { OutboundHttp } from "../../providers/outbound/OutboundHttp.js"
import { SecretBox } from "../SecretBox.js"
import { CHAIN_SECRET_CONTEXT } from "./Chains.js"

/** What happened to a run. */
export type ChainRunEventType = "chain.run.paused" | "chain.run.succeeded" | "chain.run.failed" | "chain.run.cancelled"

/** One event of a run: its kind, a distinguishing suffix for its id (a wait's key), and its data. */
export interface ChainRunEvent {
  readonly type: ChainRunEventType
  readonly chainId: ChainId
  readonly runId: ChainRunId
  readonly generation: number
  /** Tells apart two events of one kind in one generation (two waits). */
  readonly discriminator?: string
  readonly data: { readonly [name: string]: JsonValue }
}

/** How long a receiver has to answer. */
const TIMEOUT_MS = 10_000

export class ChainEvents extends Effect.Service<ChainEvents>()("parley/services/workflows/ChainEvents", {
  effect: Effect.gen(function*() {
    const chains = yield* ChainRepo
    const box = yield* SecretBox
    const outbound = yield* OutboundHttp

    const send = Effect.fn("ChainEvents.send")(function*(event: ChainRunEvent) {
      const chain = Option.getOrUndefined(yield* chains.findById(event.chainId))
      if (chain === undefined || chain.eventsUrl === null) return
      const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const id = ["run", event.runId, event.generation, event.type, event.discriminator]
        .filter((part) => part !== undefined)
        .join("_")
      const body = JSON.stringify({
        type: event.type,
        timestamp: new Date(timestamp * 1000).toISOString(),
        data: { runId: event.runId, chainSlug: chain.slug, generation: event.generation, ...event.data }
      })
      const secret = yield* Effect.orDie(box.openString(chain.ingressSecret, CHAIN_SECRET_CONTEXT))
      const url = chain.eventsUrl
      yield* outbound.send({
        method: "POST",
        url: new URL(url),
        headers: { "content-type": "application/json", ...signedHeaders(secret, { id, timestamp, body }) },
        body: new TextEncoder().encode(body),
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: 64 * 1024,
        maxRedirects: 0
      }).pipe(
        Effect.filterOrFail(
          (answer) => answer.status < 300,
          (answer) => ({ message: `answered HTTP ${answer.status}` })
        ),
        Effect.retry(Schedule.exponential(Duration.seconds(1)).pipe(Schedule.intersect(Schedule.recurs(2)))),
        Effect.catchAll((failure) =>
          Effect.logWarning("A chain run event was not delivered; it is given up").pipe(
            Effect.annotateLogs({ event: event.type, runId: event.runId, reason: failure.message })
          )
        )
      )
    })

    return { send } as const
  }),
  dependencies: [ChainRepo.Default, OutboundHttp.Default]
}) {}
