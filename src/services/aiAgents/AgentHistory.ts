/**
 * An agent's history, as `ai-agent.read` may see it: the workspace audit
 * log's records about the agent (resource `ai-agent`, its id), newest first,
 * shown without client addresses or field values. Releases record their
 * events here too (`release`), in the same shape as the item events:
 * `summary.after` holds `version`/`previousVersion` or
 * `collection`/`itemId`/`changedFields`.
 */
import { Effect, Schema } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import {
  AiAgentAuditAction,
  AiAgentAuditEvent,
  type AiAgentAuditEventListParams,
  AiAgentCollection
} from "../../domain/aiAgents/AiAgentAuditEvent.js"
import { AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import type { AuditRecord } from "../../domain/identity/AuditRecord.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** The release actions this service records. */
export type ReleaseAction = "ai-agent.published" | "ai-agent.rolled-back" | "ai-agent.public-token-rotated"

const isAction = Schema.is(AiAgentAuditAction)
const isCollection = Schema.is(AiAgentCollection)
const isVersion = Schema.is(AiAgentVersionNumber)
const isUuid = Schema.is(Schema.UUID)

const summaryOf = (action: AiAgentAuditAction, version: number | null, collection: string | null): string => {
  switch (action) {
    case "ai-agent.created":
      return "Created the agent"
    case "ai-agent.updated":
      return "Changed the draft"
    case "ai-agent.published":
      return version === null ? "Published a version" : `Published version ${version}`
    case "ai-agent.publish-refused":
      return "The publish gate refused a candidate"
    case "ai-agent.rolled-back":
      return version === null ? "Rolled back" : `Rolled back to version ${version}`
    case "ai-agent.public-token-rotated":
      return "Rotated the public token"
    case "ai-agent.item.created":
      return `Added an item to ${collection ?? "a collection"}`
    case "ai-agent.item.updated":
      return `Changed an item of ${collection ?? "a collection"}`
    case "ai-agent.item.deleted":
      return `Removed an item from ${collection ?? "a collection"}`
  }
}

/** An audit record as an agent event; undefined for an action that is not an agent's. */
export const eventOf = (record: AuditRecord): AiAgentAuditEvent | undefined => {
  if (!isAction(record.action)) return undefined
  const after = record.summary.after ?? {}
  const version = isVersion(after.version) ? after.version : null
  const previousVersion = isVersion(after.previousVersion) ? after.previousVersion : null
  const collection = isCollection(after.collection) ? after.collection : null
  return AiAgentAuditEvent.make({
    id: record.id,
    action: record.action,
    actor: record.actor,
    actorDisplay: record.actorDisplay,
    occurredAt: record.occurredAt,
    version,
    previousVersion,
    collection,
    itemId: isUuid(after.itemId) ? after.itemId : null,
    changedFields: Array.isArray(after.changedFields)
      ? after.changedFields.filter((field): field is string => typeof field === "string")
      : [],
    summary: summaryOf(record.action, version, collection),
    traceId: record.traceId
  })
}

export class AgentHistory extends Effect.Service<AgentHistory>()("parley/services/aiAgents/AgentHistory", {
  effect: Effect.gen(function*() {
    const log = yield* AuditLog

    /** Record a release event against the agent, inside the caller's transaction. */
    const release = (
      principal: Principal,
      origin: Origin,
      agent: Pick<AiAgent, "id">,
      action: ReleaseAction,
      versions: { readonly version: number | null; readonly previousVersion: number | null }
    ) =>
      log.append(workspaceEntry(principal, origin, {
        action,
        resourceType: "ai-agent",
        resourceId: agent.id,
        summary: { before: null, after: { ...versions } }
      })).pipe(Effect.withSpan("AgentHistory.release"))

    /** A page of the agent's events, newest first. */
    const list = Effect.fn("AgentHistory.list")(
      function*(principal: Principal, agent: Pick<AiAgent, "id">, params: typeof AiAgentAuditEventListParams.Type) {
        const { limit, offset } = pageOf(params)
        const page = yield* log.list(principal.workspaceId, {
          limit,
          offset,
          resourceType: "ai-agent",
          resourceId: agent.id,
          action: params.action ?? "ai-agent.*",
          from: params.from,
          to: params.to
        })
        return {
          items: page.items.flatMap((record) => eventOf(record) ?? []),
          total: page.total,
          limit,
          offset
        }
      }
    )

    return { release, list } as const
  })
}) {}
