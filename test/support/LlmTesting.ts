/**
 * Helpers of the provider tests: the LlmClients layer with the settings a
 * test gives (loopback opened by `PARLEY_TOOL_ALLOWED_HOSTS` unless told,
 * a breaker that opens after two failures for a second), and connections
 * decoded as the settings would hold them.
 */
import { ConfigProvider, Layer, Option, Redacted, Schema } from "effect"
import { LlmConnection } from "../../src/domain/settings/LlmConnection.js"
import { LlmClients, type LlmTarget } from "../../src/providers/llm/LlmClients.js"

/** LlmClients over `settings` (merged over the test defaults). */
export const llmClientsWith = (settings: Record<string, string> = {}) =>
  LlmClients.Default.pipe(
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
      new Map(Object.entries({
        PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.0/8",
        PARLEY_LLM_BREAKER_FAILURES: "2",
        PARLEY_LLM_BREAKER_COOLDOWN: "1 second",
        ...settings
      }))
    )))
  )

/** A connection as stored, defaults applied. */
export const connection = (fields: {
  readonly provider: LlmConnection["provider"]
  readonly model: string
  readonly baseUrl?: string
  readonly requestTimeoutSeconds?: number
}): LlmConnection => Schema.decodeUnknownSync(LlmConnection)(fields)

/** A target: the connection and its key. */
export const target = (fields: Parameters<typeof connection>[0], key?: string): LlmTarget => ({
  connection: connection(fields),
  apiKey: key === undefined ? Option.none() : Option.some(Redacted.make(key))
})
