import { Schema } from "effect"
import { ActorDisplay, AuditActor } from "../identity/Actor.js"
import { AuditRecordId } from "../identity/AuditRecord.js"
import { ListParams } from "../Pagination.js"
import { TraceId } from "../Trace.js"
import { AiAgentVersionNumber } from "./Ids.js"

/**
 * What happened to an agent: its lifecycle (created, draft updated,
 * published, publish refused by the gate, rolled back, public token rotated)
 * and changes to the items of its collections.
 */
export const AiAgentAuditAction = Schema.Literal(
  "ai-agent.created",
  "ai-agent.updated",
  "ai-agent.published",
  "ai-agent.publish-refused",
  "ai-agent.rolled-back",
  "ai-agent.public-token-rotated",
  "ai-agent.item.created",
  "ai-agent.item.updated",
  "ai-agent.item.deleted"
).annotations({ identifier: "AiAgentAuditAction" })
export type AiAgentAuditAction = typeof AiAgentAuditAction.Type

/** The collection of an `ai-agent.item.*` event. */
export const AiAgentCollection = Schema.Literal("tasks", "tools", "memory", "knowledge", "guardrails", "evals")
  .annotations({ identifier: "AiAgentCollection" })

/**
 * An event in an agent's history, drawn from the workspace audit log (same
 * id) and readable with `ai-agent.read`: actor, time and what changed, but
 * no client addresses and no field values.
 */
export class AiAgentAuditEvent extends Schema.Class<AiAgentAuditEvent>("AiAgentAuditEvent")({
  id: AuditRecordId,
  action: AiAgentAuditAction,
  actor: AuditActor,
  /** The actor's name at the time. */
  actorDisplay: ActorDisplay,
  occurredAt: Schema.DateTimeUtc,
  /** The version published, or made live by a rollback; null for other actions. */
  version: Schema.NullOr(AiAgentVersionNumber),
  /** The version that was live before a publish or rollback. */
  previousVersion: Schema.NullOr(AiAgentVersionNumber),
  collection: Schema.NullOr(AiAgentCollection),
  /** The id of the collection item an `ai-agent.item.*` event is about. */
  itemId: Schema.NullOr(Schema.UUID),
  /** The names of the fields a change touched (never their values). */
  changedFields: Schema.Array(Schema.String),
  /** One sentence for a timeline (`Published version 4`). */
  summary: Schema.String,
  traceId: Schema.NullOr(TraceId)
}) {}

/** The query of an agent's audit events, newest first: a page, optionally one action and a time window. */
export const AiAgentAuditEventListParams = Schema.Struct({
  ...ListParams.fields,
  action: Schema.optional(AiAgentAuditAction),
  /** At or after this instant (ISO 8601). */
  from: Schema.optional(Schema.DateTimeUtc),
  /** Before this instant (ISO 8601). */
  to: Schema.optional(Schema.DateTimeUtc)
})
