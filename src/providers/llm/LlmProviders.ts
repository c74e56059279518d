/**
 * Each provider as an adapter behind the @effect/ai interfaces: a connection
 * and its key give a LanguageModel (and, where the protocol has them,
 * embeddings). `offline` needs no network; the others go out through
 * `LlmHttpClient` (the outbound address rule, the connection's time-out, the
 * record/replay cassette).
 */
import type { EmbeddingModel, LanguageModel } from "@effect/ai"
import { Effect, type Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { type LlmCallFailure, llmFailure } from "./LlmCallFailure.js"
import { makeOfflineLanguageModel } from "./OfflineLanguageModel.js"

type ApiKey = Option.Option<Redacted.Redacted<string>>

export class LlmProviders extends Effect.Service<LlmProviders>()("parley/providers/llm/LlmProviders", {
  effect: Effect.gen(function*() {
    const languageModel = (
      connection: LlmConnection,
      _apiKey: ApiKey
    ): Effect.Effect<LanguageModel.Service, LlmCallFailure> => {
      switch (connection.provider) {
        case "offline":
          return makeOfflineLanguageModel(connection.model)
        default:
          return Effect.fail(llmFailure("unsupported", `the ${connection.provider} provider is not available yet`))
      }
    }

    const embeddingModel = (
      connection: LlmConnection,
      _apiKey: ApiKey
    ): Effect.Effect<EmbeddingModel.Service, LlmCallFailure> =>
      Effect.fail(llmFailure("unsupported", `the ${connection.provider} provider has no embeddings here`))

    /** One breaker per endpoint, model and key (limits are per key); the key enters only as a hash. */
    const breakerKey = (connection: LlmConnection, apiKey: ApiKey): string => {
      const key = apiKey._tag === "Some"
        ? Crypto.createHash("sha256").update(Redacted.value(apiKey.value)).digest("base64url").slice(0, 16)
        : "-"
      return `${connection.provider} ${connection.baseUrl ?? "-"} ${connection.model} ${key}`
    }

    return { languageModel, embeddingModel, breakerKey } as const
  })
}) {}
