/**
 * The one entry the rest of Parley uses to reach a language model: given a
 * connection (provider, endpoint, model, defaults) and the API key the caller
 * read from the vault, a `LanguageModel` (generate and stream, with tools),
 * behind the connection's circuit breaker and, when given, a fallback
 * connection; embeddings; and `roundTrip`, the settings' test call, which
 * reports the model that answered, usage and latency or a typed failure.
 * Usage is reported, not counted here: callers count it (`UsageMeter`).
 */
import type { EmbeddingModel, LanguageModel } from "@effect/ai"
import { AiError } from "@effect/ai"
import { Clock, Effect, Option, Redacted } from "effect"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { CircuitBreakers } from "./CircuitBreakers.js"
import { fallbackModel } from "./FallbackModel.js"
import { guardedModel } from "./GuardedModel.js"
import { fromAiError, type LlmCallFailure } from "./LlmCallFailure.js"
import { LlmProviders } from "./LlmProviders.js"

/** A connection and its key (read from the vault by the caller; none for `offline` and keyless servers). */
export interface LlmTarget {
  readonly connection: LlmConnection
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
}

/** What a round trip reports: the model the provider says answered, usage, the reply (at most 500 characters) and latency. */
export interface LlmRoundTrip {
  readonly reportedModel: string | null
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number }
  readonly reply: string
  readonly latencyMs: number
}

const secretsOf = (...targets: ReadonlyArray<LlmTarget | null>): ReadonlyArray<string> =>
  targets.flatMap((target) => target === null ? [] : Option.toArray(Option.map(target.apiKey, Redacted.value)))

/** Names a connection in messages and logs: provider, endpoint and model, never the key. */
export const connectionLabel = (connection: LlmConnection): string =>
  `${connection.provider}${connection.baseUrl === null ? "" : ` at ${connection.baseUrl}`} (${connection.model})`

export class LlmClients extends Effect.Service<LlmClients>()("parley/providers/llm/LlmClients", {
  effect: Effect.gen(function*() {
    const providers = yield* LlmProviders
    const breakers = yield* CircuitBreakers

    const guarded = (target: LlmTarget) =>
      Effect.map(providers.languageModel(target.connection, target.apiKey), (model) =>
        guardedModel(
          model,
          breakers,
          providers.breakerKey(target.connection, target.apiKey),
          connectionLabel(target.connection),
          secretsOf(target),
          target.connection.requestTimeoutSeconds * 1000
        ))

    /**
     * The LanguageModel of `primary`, falling back to `fallback` (when given)
     * on time-outs, 5xx, 429 and unreachable hosts. Its errors are AiErrors;
     * `LlmCallFailure.fromAiError` tells their kind.
     */
    const languageModel = Effect.fn("LlmClients.languageModel")(
      function*(primary: LlmTarget, fallback: LlmTarget | null = null) {
        const first = yield* guarded(primary)
        if (fallback === null) return first
        return fallbackModel(first, yield* guarded(fallback), secretsOf(primary, fallback))
      }
    ) as (primary: LlmTarget, fallback?: LlmTarget | null) => Effect.Effect<LanguageModel.Service, LlmCallFailure>

    /** The embeddings of an OpenAI-compatible connection (`/embeddings`). */
    const embeddings = Effect.fn("LlmClients.embeddings")(function*(target: LlmTarget) {
      return yield* providers.embeddingModel(target.connection, target.apiKey)
    }) as (target: LlmTarget) => Effect.Effect<EmbeddingModel.Service, LlmCallFailure>

    /**
     * One call through exactly this connection (no breaker, no fallback: it
     * tests the connection), timed from the request to the last byte.
     */
    const roundTrip = Effect.fn("LlmClients.roundTrip")(function*(request: {
      readonly connection: LlmConnection
      readonly apiKey: Option.Option<Redacted.Redacted<string>>
      readonly prompt: string
    }) {
      const model = yield* providers.languageModel(request.connection, request.apiKey)
      const started = yield* Clock.currentTimeNanos
      const response = yield* model.generateText({ prompt: request.prompt }).pipe(
        Effect.mapError((error) =>
          fromAiError(
            AiError.isAiError(error)
              ? error
              : new AiError.UnknownError({ module: "LlmClients", method: "roundTrip", cause: error }),
            secretsOf(request)
          )
        )
      )
      const latencyMs = Number((yield* Clock.currentTimeNanos) - started) / 1e6
      const metadata = response.content.find((part) => part.type === "response-metadata")
      return {
        reportedModel: metadata === undefined ? null : Option.getOrNull(metadata.modelId),
        usage: { inputTokens: response.usage.inputTokens ?? 0, outputTokens: response.usage.outputTokens ?? 0 },
        reply: response.text.slice(0, 500),
        latencyMs
      } satisfies LlmRoundTrip
    })

    return { languageModel, embeddings, roundTrip } as const
  }),
  dependencies: [LlmProviders.Default, CircuitBreakers.Default]
}) {}
