/**
 * Each provider as an adapter behind the @effect/ai interfaces: a connection
 * and its key give a LanguageModel (and, where the protocol has them,
 * embeddings). `offline` needs no network; the others go out through
 * `LlmHttpClient` (the outbound address rule, the connection's time-out, the
 * record/replay cassette). `google` has no provider package on the Effect 3
 * line (`@effect/ai-google` requires @effect/ai 0.36): Gemini is reached
 * through its OpenAI-compatible endpoint.
 */
import type { EmbeddingModel, LanguageModel } from "@effect/ai"
import { Effect, Option, Redacted } from "effect"
import * as Crypto from "node:crypto"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { makeAnthropicModel } from "./AnthropicModel.js"
import { type LlmCallFailure, llmFailure } from "./LlmCallFailure.js"
import { LlmHttpClient } from "./LlmHttpClient.js"
import { makeOfflineLanguageModel } from "./OfflineLanguageModel.js"
import { makeOpenAiChatModel } from "./OpenAiChatModel.js"
import { makeOpenAiEmbeddings } from "./OpenAiEmbeddings.js"

type ApiKey = Option.Option<Redacted.Redacted<string>>

const googleUnsupported = llmFailure(
  "unsupported",
  "Parley has no Google provider on its Effect line; use provider openai-compatible with the base URL " +
    "https://generativelanguage.googleapis.com/v1beta/openai and a Gemini API key"
)

export class LlmProviders extends Effect.Service<LlmProviders>()("parley/providers/llm/LlmProviders", {
  effect: Effect.gen(function*() {
    const http = yield* LlmHttpClient

    const languageModel = (
      connection: LlmConnection,
      apiKey: ApiKey
    ): Effect.Effect<LanguageModel.Service, LlmCallFailure> => {
      switch (connection.provider) {
        case "offline":
          return makeOfflineLanguageModel(connection.model)
        case "openai":
        case "openai-compatible":
          return makeOpenAiChatModel(connection, apiKey, http.forConnection(connection))
        case "anthropic":
          return makeAnthropicModel(connection, apiKey, http.forConnection(connection))
        case "google":
          return Effect.fail(googleUnsupported)
      }
    }

    const embeddingModel = (
      connection: LlmConnection,
      apiKey: ApiKey
    ): Effect.Effect<EmbeddingModel.Service, LlmCallFailure> => {
      switch (connection.provider) {
        case "openai":
        case "openai-compatible":
          return makeOpenAiEmbeddings(connection, apiKey, http.forConnection(connection))
        case "google":
          return Effect.fail(googleUnsupported)
        default:
          return Effect.fail(
            llmFailure("unsupported", `the ${connection.provider} provider has no embeddings endpoint in Parley`)
          )
      }
    }

    /** One breaker per endpoint, model and key (limits are per key); the key enters only as a hash. */
    const breakerKey = (connection: LlmConnection, apiKey: ApiKey): string => {
      const key = Option.match(apiKey, {
        onNone: () => "-",
        onSome: (value) => Crypto.createHash("sha256").update(Redacted.value(value)).digest("base64url").slice(0, 16)
      })
      return `${connection.provider} ${connection.baseUrl ?? "-"} ${connection.model} ${key}`
    }

    return { languageModel, embeddingModel, breakerKey } as const
  }),
  dependencies: [LlmHttpClient.Default]
}) {}
