/**
 * The `anthropic` provider: @effect/ai-anthropic's LanguageModel (the
 * Messages API, plain and streamed, with tool use) over Parley's LLM HTTP
 * client. The base URL is Anthropic's unless the connection names another
 * (a proxy or gateway), given with or without its `/v1`.
 */
import { AnthropicClient, AnthropicLanguageModel } from "@effect/ai-anthropic"
import { HttpClient } from "@effect/platform"
import { Effect, Option, type Redacted } from "effect"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"

/** The LanguageModel of `connection` over `httpClient`. */
export const makeAnthropicModel = (
  connection: LlmConnection,
  apiKey: Option.Option<Redacted.Redacted<string>>,
  httpClient: HttpClient.HttpClient
) =>
  Effect.gen(function*() {
    const apiUrl = (connection.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "").replace(/\/v1$/, "")
    const client = yield* AnthropicClient.make({ apiKey: Option.getOrUndefined(apiKey), apiUrl }).pipe(
      Effect.provideService(HttpClient.HttpClient, httpClient),
      Effect.scoped
    )
    return yield* AnthropicLanguageModel.make({
      model: connection.model,
      config: { max_tokens: connection.maxOutputTokens, temperature: connection.temperature }
    }).pipe(Effect.provideService(AnthropicClient.AnthropicClient, client))
  })
