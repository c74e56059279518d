import { Schema } from "effect"
import { LlmBaseUrl, type LlmConnection, LlmModelName, LlmProvider } from "./LlmConnection.js"

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

/** Parley's own default when neither the workspace nor the server sets an LLM: the offline provider, no key, no network. */
export const defaultLlmConnection: LlmConnection = {
  provider: "offline",
  baseUrl: null,
  model: "parley-offline",
  apiKeySecret: null,
  temperature: 0.3,
  maxOutputTokens: 1024,
  requestTimeoutSeconds: 60
}

/**
 * The connection in force: the workspace's own, else the server's
 * environment's, else Parley's default, with where it came from.
 */
export const connectionInForce = (
  workspace: LlmConnection | null,
  environment: LlmConnection | null
): { readonly connection: LlmConnection; readonly source: LlmSettingSource } =>
  workspace !== null
    ? { connection: workspace, source: "workspace" }
    : environment !== null
    ? { connection: environment, source: "environment" }
    : { connection: defaultLlmConnection, source: "default" }
