import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { ListParams } from "../Pagination.js"
import { AiAgentConversationId, AiAgentId, AiAgentMemoryId, EndUserId } from "./Ids.js"

/** Whom a fact is about: the agent as a whole (every conversation), or one end user. */
export const AiAgentMemoryScope = Schema.Literal("agent", "end-user").annotations({ identifier: "AiAgentMemoryScope" })
export type AiAgentMemoryScope = typeof AiAgentMemoryScope.Type

/** How a fact came to be: written through this API, or by the `remember` tool in a conversation. */
export const AiAgentMemorySource = Schema.Literal("manual", "conversation").annotations({
  identifier: "AiAgentMemorySource"
})
export type AiAgentMemorySource = typeof AiAgentMemorySource.Type

/** How long a fact is kept: for ever, or a number of days (1 to 3650) after it was last written. */
export const AiAgentMemoryRetention = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("forever") }),
  Schema.Struct({ kind: Schema.Literal("days"), days: Schema.Number.pipe(Schema.int(), Schema.between(1, 3650)) })
).annotations({ identifier: "AiAgentMemoryRetention" })
export type AiAgentMemoryRetention = typeof AiAgentMemoryRetention.Type

/**
 * A fact's optional stable name (`preferred_language`). The `remember` tool
 * replaces the fact that has its key; this API refuses a second one (409).
 */
export const AiAgentMemoryKey = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9_.-]{0,63}$/, {
    message: () => "a memory key is 1 to 64 characters of a-z, 0-9, '_', '.' and '-', starting with a letter"
  }),
  Schema.annotations({ identifier: "AiAgentMemoryKey", examples: ["preferred_language"] })
)

/** The fact itself, in a sentence the model reads: 1 to 2000 characters. */
export const AiAgentMemoryContent = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(2000))

/** A client-settable moment that may be absent: `null` in the database and in JSON (and when omitted). */
const OptionalDateTime = Model.Field({
  select: Schema.NullOr(Model.DateTimeFromDate),
  insert: Schema.NullOr(Model.DateTimeFromDate),
  update: Schema.NullOr(Model.DateTimeFromDate),
  json: Schema.NullOr(Schema.DateTimeUtc),
  jsonCreate: Schema.optionalWith(Schema.NullOr(Schema.DateTimeUtc), { default: () => null }),
  jsonUpdate: Schema.optionalWith(Schema.NullOr(Schema.DateTimeUtc), { default: () => null })
})

/**
 * A fact an AI agent keeps across conversations, about the agent's world
 * (`agent` scope) or about one end user (`end-user` scope, with the embedding
 * site's id for them). It is forgotten when its retention runs out or at
 * `expiresAt`, whichever comes first. Memory is live data, not part of the
 * draft: writes do not bump the agent's revision, and every version reads it.
 */
export class AiAgentMemory extends Model.Class<AiAgentMemory>("AiAgentMemory")({
  id: Model.Generated(AiAgentMemoryId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** Fixed at creation. */
  scope: AiAgentMemoryScope,
  /** The end user the fact is about: required for `end-user` scope, null for `agent` scope. Fixed at creation. */
  endUserId: Schema.optionalWith(Schema.NullOr(EndUserId), { default: () => null }),
  /** Unique per agent, scope and end user; null for a fact without a key. */
  key: Schema.optionalWith(Schema.NullOr(AiAgentMemoryKey), { default: () => null }),
  content: AiAgentMemoryContent,
  source: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentMemorySource),
  /** The conversation whose `remember` call wrote the fact; null for `manual` facts. */
  conversationId: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(AiAgentConversationId)),
  retention: Schema.optionalWith(AiAgentMemoryRetention, { default: () => ({ kind: "forever" as const }) }),
  /** A hard end, whatever the retention; null for none. It must lie in the future when written. */
  expiresAt: OptionalDateTime,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/** The fields of a new fact; `endUserId` is required exactly for `end-user` scope. Unknown fields are refused. */
export const AiAgentMemoryCreate = AiAgentMemory.jsonCreate.pipe(
  Schema.filter((fact) =>
    fact.scope === "end-user"
      ? fact.endUserId !== null || { path: ["endUserId"], message: "an end-user fact needs an endUserId" }
      : fact.endUserId === null || { path: ["endUserId"], message: "an agent fact has no endUserId" }
  )
).annotations({ identifier: "AiAgentMemoryCreate", parseOptions: { onExcessProperty: "error" } })

const memoryPatchFields = {
  /** A new key, or null to remove it. */
  key: Schema.optional(Schema.NullOr(AiAgentMemoryKey)),
  content: Schema.optional(AiAgentMemoryContent),
  retention: Schema.optional(AiAgentMemoryRetention),
  /** A new hard end, or null to remove it. */
  expiresAt: Schema.optional(Schema.NullOr(Schema.DateTimeUtc))
}

/** A partial update of a fact (scope and end user are fixed); unknown fields are refused. */
export const AiAgentMemoryPatch = Schema.Struct(memoryPatchFields).annotations({
  identifier: "AiAgentMemoryPatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the fact named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentMemoryPatchById = Schema.Struct({ id: AiAgentMemoryId, ...memoryPatchFields }).annotations({
  identifier: "AiAgentMemoryPatchById",
  parseOptions: { onExcessProperty: "error" }
})

/** The query of the memory list: a page (newest first), optionally filtered by scope, end user, source or key. */
export const AiAgentMemoryListParams = Schema.Struct({
  ...ListParams.fields,
  scope: Schema.optional(AiAgentMemoryScope),
  endUserId: Schema.optional(EndUserId),
  source: Schema.optional(AiAgentMemorySource),
  key: Schema.optional(AiAgentMemoryKey)
})

/** No fact with this id exists in the agent's memory. */
export class AiAgentMemoryNotFound extends Schema.TaggedError<AiAgentMemoryNotFound>()(
  "AiAgentMemoryNotFound",
  { memoryId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No fact with this id in the agent's memory" })
) {}

/** Another fact of the same scope (and end user) already has this key. */
export class AiAgentMemoryKeyTaken extends Schema.TaggedError<AiAgentMemoryKeyTaken>()(
  "AiAgentMemoryKeyTaken",
  { key: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another fact of this scope has the key" })
) {}
