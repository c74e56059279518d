import { Schema } from "effect"
import { HttpUrl } from "../Url.js"
import { SecretName } from "../workspace/Ids.js"

/** An LLM provider Parley can call; `offline` is the deterministic, scriptable provider used without a network. */
export const LlmProvider = Schema.Literal("openai", "anthropic", "google", "openai-compatible", "offline")
export type LlmProvider = typeof LlmProvider.Type

/** A model id as its provider spells it: `gpt-4.1-mini`, `claude-sonnet-4-5`, `meta-llama/Llama-3.1-8B-Instruct`. */
export const LlmModelName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/),
  Schema.annotations({ identifier: "LlmModelName", examples: ["gpt-4.1-mini" as never] })
)

/**
 * A language model by provider and name (`openai` / `gpt-4.1-mini`), reached
 * through the workspace's connection for that provider.
 */
export const LlmModelRef = Schema.Struct({
  provider: LlmProvider,
  model: LlmModelName
}).annotations({ identifier: "LlmModelRef" })
export type LlmModelRef = typeof LlmModelRef.Type

/** The base URL of a provider's API: http(s), without credentials (they come from the vault). */
export const LlmBaseUrl = HttpUrl.annotations({
  identifier: "LlmBaseUrl",
  examples: ["https://llm.internal.example.com/v1" as never]
})

/** The sampling temperature, 0 to 2. */
export const Temperature = Schema.Number.pipe(Schema.between(0, 2))

/** The most tokens one completion may produce, 1 to 200 000. */
export const MaxOutputTokens = Schema.Number.pipe(Schema.int(), Schema.between(1, 200_000))

/** How long one LLM request may take, in seconds (1 to 300). */
export const LlmTimeoutSeconds = Schema.Number.pipe(Schema.int(), Schema.between(1, 300))

/**
 * How to reach one LLM: provider, endpoint, model, the vault secret holding
 * the API key (by name, never the key) and the defaults of each call. A base
 * URL is required for `openai-compatible` and overrides the provider's
 * public endpoint for the others (a proxy or a regional endpoint); an API key
 * is required except for `offline` and keyless `openai-compatible` servers.
 */
export const LlmConnection = Schema.Struct({
  provider: LlmProvider,
  baseUrl: Schema.optionalWith(Schema.NullOr(LlmBaseUrl), { default: () => null }),
  model: LlmModelName,
  apiKeySecret: Schema.optionalWith(Schema.NullOr(SecretName), { default: () => null }),
  temperature: Schema.optionalWith(Temperature, { default: () => 0.3 }),
  maxOutputTokens: Schema.optionalWith(MaxOutputTokens, { default: () => 1024 }),
  requestTimeoutSeconds: Schema.optionalWith(LlmTimeoutSeconds, { default: () => 60 })
}).annotations({ identifier: "LlmConnection" })
export type LlmConnection = typeof LlmConnection.Type

/** A rule a connection breaks, by the field it concerns. */
export interface ConnectionProblem {
  readonly field: keyof LlmConnection
  readonly message: string
}

/** The providers that refuse a call without an API key. */
const needsKey: ReadonlySet<LlmProvider> = new Set(["openai", "anthropic", "google"])

/**
 * The rules across a connection's fields: `openai-compatible` needs a base
 * URL; `openai`, `anthropic` and `google` need a key (`hasKey`: a vault
 * secret named, or the environment's key); `offline` takes neither; a base URL
 * carries no query or fragment (the provider's paths are appended to it).
 */
export const connectionProblems = (
  connection: LlmConnection,
  hasKey: boolean = connection.apiKeySecret !== null
): ReadonlyArray<ConnectionProblem> => {
  const problems: Array<ConnectionProblem> = []
  const { baseUrl, provider } = connection
  if (provider === "google") {
    problems.push({
      field: "provider",
      message: "google has no provider on Parley's Effect 3 line yet: use openai-compatible with the base URL " +
        "https://generativelanguage.googleapis.com/v1beta/openai and a Gemini API key"
    })
  }
  if (provider === "openai-compatible" && baseUrl === null) {
    problems.push({ field: "baseUrl", message: "an openai-compatible provider needs the base URL of its API" })
  }
  if (needsKey.has(provider) && !hasKey) {
    problems.push({ field: "apiKeySecret", message: `${provider} needs an API key: name the vault secret holding it` })
  }
  if (provider === "offline" && baseUrl !== null) {
    problems.push({ field: "baseUrl", message: "the offline provider calls no endpoint: leave the base URL out" })
  }
  if (provider === "offline" && hasKey) {
    problems.push({ field: "apiKeySecret", message: "the offline provider needs no API key: leave it out" })
  }
  if (baseUrl !== null && !URL.canParse(baseUrl)) {
    problems.push({ field: "baseUrl", message: "not a URL" })
  } else if (baseUrl !== null && (new URL(baseUrl).search !== "" || new URL(baseUrl).hash !== "")) {
    problems.push({ field: "baseUrl", message: "a base URL has no query or fragment: the API's paths are added to it" })
  }
  return problems
}
