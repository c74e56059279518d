import { Schema } from "effect"

/** The kinds of workspace resource that use a secret or a workspace tool. */
export const ResourceKind = Schema.Literal(
  "workspace-tool",
  "ai-agent",
  /** A tool of an AI agent (its own HTTP tool's headers, or its overrides of a workspace tool, name secrets). */
  "ai-agent-tool",
  "assistant",
  "workflow",
  "chain",
  "channel",
  "agent-llm-settings",
  "agent-ops-settings"
)
export type ResourceKind = typeof ResourceKind.Type

/**
 * A pointer to a workspace resource that depends on another one (the tool
 * whose header reads a secret, the agent that calls a tool): its kind, its id
 * or slug as its own routes address it, and a display name when it has one.
 */
export const ResourceRef = Schema.Struct({
  kind: ResourceKind,
  /** The UUID or slug of the resource; for settings, the workspace id. */
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(200)))
}).annotations({ identifier: "ResourceRef" })
export type ResourceRef = typeof ResourceRef.Type

/** The query of a delete that others may depend on: `?force=true` deletes anyway. */
export const ForceDeleteParams = Schema.Struct({
  force: Schema.optionalWith(
    Schema.BooleanFromString.annotations({
      description: "Delete even when other resources use it; they fail until they are changed"
    }),
    { default: () => false }
  )
})
