/**
 * What an AI agent's tool runs: an inline HTTP request (the same definition
 * as a workspace tool), a shared workspace tool by reference, or one of the
 * built-ins. The model sees each by the tool's `name` and `description`.
 */
import { Schema } from "effect"
import { JsonObject } from "../Json.js"
import {
  httpToolDefinitionFields,
  MaxResponseBytes,
  ToolHeaders,
  ToolQuery,
  ToolTimeoutSeconds
} from "../workspace/HttpToolDefinition.js"
import { WorkspaceToolId } from "../workspace/Ids.js"
import { AiAgentKnowledgeId } from "./Ids.js"
import { AiAgentMemoryRetention, AiAgentMemoryScope } from "./Memory.js"

/** The kind of an agent tool. */
export const AiAgentToolKind = Schema.Literal("http", "workspace", "builtin").annotations({
  identifier: "AiAgentToolKind"
})
export type AiAgentToolKind = typeof AiAgentToolKind.Type

/** The built-in tools: search the agent's knowledge, keep a fact in its memory, hand the conversation to a human. */
export const BuiltinToolName = Schema.Literal("knowledge_search", "remember", "handoff").annotations({
  identifier: "BuiltinToolName"
})
export type BuiltinToolName = typeof BuiltinToolName.Type

/**
 * An inline HTTP tool: a JSON-schema input, a request template whose
 * `{{input.x}}` placeholders take the call's arguments, headers and query
 * values that may name vault secrets, a time-out (1 to 60 s) and the largest
 * response it reads.
 */
export const HttpToolConfig = Schema.Struct({
  kind: Schema.Literal("http"),
  ...httpToolDefinitionFields
}).annotations({ identifier: "AiAgentHttpToolConfig" })

/** What an agent may change of a shared workspace tool without copying it; each field given wins over the tool's. */
export const WorkspaceToolOverrides = Schema.Struct({
  timeoutSeconds: Schema.optional(ToolTimeoutSeconds),
  maxResponseBytes: Schema.optional(MaxResponseBytes),
  /** Added to the tool's headers; a header of the same name (ignoring case) replaces the tool's. */
  headers: Schema.optional(ToolHeaders),
  /** Added to the tool's query parameters, replacing those of the same name. */
  query: Schema.optional(ToolQuery),
  /** Input properties this agent always sends: removed from the schema the model sees, merged into its arguments. */
  fixedInput: Schema.optional(JsonObject)
}).annotations({ identifier: "WorkspaceToolOverrides" })

/** A shared workspace tool, by reference: changes to it reach the agent's draft at once. */
export const WorkspaceToolConfig = Schema.Struct({
  kind: Schema.Literal("workspace"),
  workspaceToolId: WorkspaceToolId,
  overrides: Schema.optionalWith(WorkspaceToolOverrides, { default: () => ({}) })
}).annotations({ identifier: "AiAgentWorkspaceToolConfig" })

/**
 * How `knowledge_search` searches: how many chunks it returns, the least score kept, which documents,
 * and whether the agent's model reranks the best passages.
 */
export const KnowledgeSearchSettings = Schema.Struct({
  topK: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 20)), { default: () => 5 }),
  /** Chunks scoring below this (0 to 1, after fusing the rankings) are dropped. */
  minScore: Schema.optionalWith(Schema.Number.pipe(Schema.between(0, 1)), { default: () => 0 }),
  /** Search only these documents; empty: every enabled document of the agent. */
  knowledgeIds: Schema.optionalWith(Schema.Array(AiAgentKnowledgeId).pipe(Schema.maxItems(200)), { default: () => [] }),
  rerank: Schema.optionalWith(
    Schema.Boolean.annotations({
      description: "Contract refinement: have the agent's language model order the best 20 passages for the query " +
        "before the `topK` are returned (one more model call per search, its usage counted; an answer it cannot " +
        "read leaves the fused order)."
    }),
    { default: () => false }
  )
}).annotations({ identifier: "KnowledgeSearchSettings" })

/** What `remember` writes: facts of this scope, kept this long. Without a known end user, `end-user` facts are not kept. */
export const RememberSettings = Schema.Struct({
  scope: Schema.optionalWith(AiAgentMemoryScope, { default: () => "end-user" as const }),
  retention: Schema.optionalWith(AiAgentMemoryRetention, { default: () => ({ kind: "forever" as const }) })
}).annotations({ identifier: "RememberSettings" })

/** What `handoff` does: the message the end user sees, and a queue name passed to the workspace's handoff target. */
export const HandoffSettings = Schema.Struct({
  message: Schema.optionalWith(Schema.NullOr(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(500))), {
    default: () => null
  }),
  queue: Schema.optionalWith(Schema.NullOr(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(120))), {
    default: () => null
  })
}).annotations({ identifier: "HandoffSettings" })

/** A built-in tool with its settings (all optional). */
export const BuiltinToolConfig = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("builtin"),
    builtin: Schema.Literal("knowledge_search"),
    settings: Schema.optionalWith(KnowledgeSearchSettings, {
      default: () => ({ topK: 5, minScore: 0, knowledgeIds: [], rerank: false })
    })
  }),
  Schema.Struct({
    kind: Schema.Literal("builtin"),
    builtin: Schema.Literal("remember"),
    settings: Schema.optionalWith(RememberSettings, {
      default: () => ({ scope: "end-user" as const, retention: { kind: "forever" as const } })
    })
  }),
  Schema.Struct({
    kind: Schema.Literal("builtin"),
    builtin: Schema.Literal("handoff"),
    settings: Schema.optionalWith(HandoffSettings, { default: () => ({ message: null, queue: null }) })
  })
).annotations({ identifier: "AiAgentBuiltinToolConfig" })

/** What an agent tool runs, by `kind` (and, for built-ins, `builtin`). */
export const AiAgentToolConfig = Schema.Union(HttpToolConfig, WorkspaceToolConfig, BuiltinToolConfig).annotations({
  identifier: "AiAgentToolConfig"
})
export type AiAgentToolConfig = typeof AiAgentToolConfig.Type
