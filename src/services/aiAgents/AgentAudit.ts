/**
 * The one way the AI-agent area writes an agent's events to the workspace
 * audit log, and the shape of their details, so the agent's history
 * (`audit-events`) can read them back. The agent is the audit target
 * (`resourceType` `ai-agent`, `resourceId` its id); the details sit in the
 * record's `summary.after` as an `AgentAuditDetails` (names of changed fields,
 * never their values).
 */
import { Effect, Schema } from "effect"
import { AiAgentAuditAction, AiAgentCollection } from "../../domain/aiAgents/AiAgentAuditEvent.js"
import { type AiAgentId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** The audit log's resource type of an agent's events. */
export const agentResourceType = "ai-agent"

/** The details of an agent event, as stored in the record's `summary.after`. */
export const AgentAuditDetails = Schema.Struct({
  /** The names of the fields a change touched (never their values). */
  changedFields: Schema.Array(Schema.String),
  /** The version published, or made live by a rollback. */
  version: Schema.NullOr(AiAgentVersionNumber),
  /** The version live before a publish or rollback. */
  previousVersion: Schema.NullOr(AiAgentVersionNumber),
  /** The collection of an `ai-agent.item.*` event. */
  collection: Schema.NullOr(AiAgentCollection),
  /** The item of an `ai-agent.item.*` event. */
  itemId: Schema.NullOr(Schema.UUID)
})
export type AgentAuditDetails = typeof AgentAuditDetails.Type

/** What a writer passes: any of the details; the rest default to none. */
export type AgentAuditInput = { readonly [K in keyof AgentAuditDetails]?: AgentAuditDetails[K] | undefined }

/** The full details from a writer's partial ones. */
export const agentAuditDetails = (input: AgentAuditInput): AgentAuditDetails => ({
  changedFields: [...(input.changedFields ?? [])],
  version: input.version ?? null,
  previousVersion: input.previousVersion ?? null,
  collection: input.collection ?? null,
  itemId: input.itemId ?? null
})

/** Read a stored record's details back; anything unreadable reads as no details (older or foreign records). */
export const readAgentAuditDetails = (after: unknown): AgentAuditDetails => {
  const decoded = Schema.decodeUnknownOption(Schema.partial(AgentAuditDetails))(after ?? {})
  return agentAuditDetails(decoded._tag === "Some" ? decoded.value : {})
}

/** The action schema, re-exported for readers that filter by it. */
export { AiAgentAuditAction }

export class AgentAudit extends Effect.Service<AgentAudit>()("parley/services/aiAgents/AgentAudit", {
  effect: Effect.gen(function*() {
    const log = yield* AuditLog

    /** Record one event against the agent; joins the caller's transaction when there is one. */
    const record = (
      principal: Principal,
      origin: Origin,
      agentId: AiAgentId,
      action: typeof AiAgentAuditAction.Type,
      details: AgentAuditInput = {}
    ) =>
      log.append(workspaceEntry(principal, origin, {
        action,
        resourceType: agentResourceType,
        resourceId: agentId,
        summary: { before: null, after: { ...agentAuditDetails(details) } }
      })).pipe(Effect.withSpan("AgentAudit.record", { attributes: { action } }))

    return { record } as const
  })
}) {}
