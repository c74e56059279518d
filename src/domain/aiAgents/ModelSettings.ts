import { Schema } from "effect"
import { LlmModelName, LlmModelRef, LlmProvider, MaxOutputTokens, Temperature } from "../settings/LlmConnection.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"

/**
 * Which LLM an agent uses: the one in force for the workspace (its agent-llm
 * setting, else the server's), or a fixed provider and model reached through
 * the workspace's connection for that provider.
 */
export const ModelChoice = Schema.Union(
  Schema.Struct({ source: Schema.Literal("workspace-default") }).annotations({}),
  Schema.Struct({ source: Schema.Literal("explicit"), ...LlmModelRef.fields }).annotations({})
).annotations({ identifier: "ModelChoice" })
export type ModelChoice = typeof ModelChoice.Type

/** Whether the model may, must or must not call tools, or must call the one named tool. */
export const ToolChoice = Schema.Union(
  Schema.Literal("auto", "none", "required"),
  Schema.Struct({ tool: ToolName })
).annotations({ identifier: "ToolChoice" })

/**
 * The model settings of an agent's draft. Omitted sampling values take the
 * workspace LLM connection's defaults.
 */
export const ModelSettings = Schema.Struct({
  model: Schema.optionalWith(ModelChoice, { default: () => ({ source: "workspace-default" as const }) }),
  temperature: Schema.optional(Temperature),
  topP: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))),
  /** The most tokens one model reply may produce. */
  maxOutputTokens: Schema.optional(MaxOutputTokens),
  toolChoice: Schema.optionalWith(ToolChoice, { default: () => "auto" as const }),
  parallelToolCalls: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  /** How many model calls one turn may make while it runs tools, before it must answer. */
  maxSteps: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 25)), { default: () => 8 }),
  /** Whether replies are free text or one JSON object. */
  responseFormat: Schema.optionalWith(Schema.Literal("text", "json-object"), { default: () => "text" as const })
}).annotations({ identifier: "ModelSettings" })
export type ModelSettings = typeof ModelSettings.Type

/** The provider and model that actually answered a turn. */
export const ResolvedModel = Schema.Struct({
  provider: LlmProvider,
  model: LlmModelName,
  /** Where the choice came from: the agent itself, the workspace's LLM in force, or its fallback. */
  source: Schema.Literal("agent", "workspace-default", "workspace-fallback")
}).annotations({ identifier: "ResolvedModel" })
