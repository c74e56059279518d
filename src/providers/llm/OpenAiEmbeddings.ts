/**
 * Embeddings through the OpenAI-compatible `POST {baseUrl}/embeddings`
 * (OpenAI, Ollama, vLLM, llama.cpp, ...): @effect/ai-openai's batched
 * EmbeddingModel over Parley's LLM HTTP client.
 */
import { EmbeddingModel } from "@effect/ai"
import { OpenAiClient, OpenAiEmbeddingModel } from "@effect/ai-openai"
import { HttpClient } from "@effect/platform"
import { Effect, Layer, Option, type Redacted } from "effect"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"

/** The EmbeddingModel of `connection` (its model names the embedding model) over `httpClient`. */
export const makeOpenAiEmbeddings = (
  connection: LlmConnection,
  apiKey: Option.Option<Redacted.Redacted<string>>,
  httpClient: HttpClient.HttpClient
) =>
  Effect.gen(function*() {
    const apiUrl = (connection.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "")
    const client = yield* OpenAiClient.make({ apiKey: Option.getOrUndefined(apiKey), apiUrl }).pipe(
      Effect.provideService(HttpClient.HttpClient, httpClient),
      Effect.scoped
    )
    return yield* EmbeddingModel.EmbeddingModel.pipe(
      Effect.provide(
        OpenAiEmbeddingModel.layerBatched({ model: connection.model, config: { maxBatchSize: 256 } }).pipe(
          Layer.provide(Layer.succeed(OpenAiClient.OpenAiClient, client))
        )
      )
    )
  })
