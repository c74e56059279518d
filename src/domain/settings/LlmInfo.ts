import { Schema } from "effect"
import { LlmBaseUrl, LlmModelName, LlmProvider } from "./LlmConnection.js"

/** Where the LLM in force was configured: the workspace's settings, the server's environment, or Parley's default. */
export const LlmSettingSource = Schema.Literal("workspace", "environment", "default")
export type LlmSettingSource = typeof LlmSettingSource.Type

/** One resolved LLM: which provider and model answer, where that came from, and whether a key is set (never the key). */
export const ResolvedLlm = Schema.Struct({
  provider: LlmProvider,
  model: LlmModelName,
  baseUrl: Schema.NullOr(LlmBaseUrl),
  source: LlmSettingSource,
  keyConfigured: Schema.Boolean
}).annotations({ identifier: "ResolvedLlm" })
export type ResolvedLlm = typeof ResolvedLlm.Type

/** The LLM in force for the workspace's agents, and its fallback if any: what a UI shows as a badge. */
export const LlmInfo = Schema.Struct({
  ...ResolvedLlm.fields,
  fallback: Schema.NullOr(ResolvedLlm)
}).annotations({ identifier: "LlmInfo" })
export type LlmInfo = typeof LlmInfo.Type
