/**
 * The audit event of a write to an item of an agent's draft collections
 * (`ai-agent.item.created|updated|deleted`), with the collection, the item's
 * id and the names of the fields it changed (never their values). The one
 * place the tasks and tools services record them.
 */
import { Effect } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentAuditAction } from "../../domain/aiAgents/AiAgentAuditEvent.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** The item actions. */
export type ItemAction = Extract<AiAgentAuditAction, `ai-agent.item.${string}`>

/** The draft collections these services write. */
export type ItemCollection = "tasks" | "tools"

export class AgentItemAudit extends Effect.Service<AgentItemAudit>()("parley/services/aiAgents/AgentItemAudit", {
  effect: Effect.gen(function*() {
    const log = yield* AuditLog

    /** Record one item event against the agent, inside the writer's transaction. */
    const item = (
      principal: Principal,
      origin: Origin,
      agent: Pick<AiAgent, "id">,
      action: ItemAction,
      collection: ItemCollection,
      itemId: string,
      changedFields: ReadonlyArray<string>
    ) =>
      log.append(workspaceEntry(principal, origin, {
        action,
        resourceType: "ai-agent",
        resourceId: agent.id,
        summary: { before: null, after: { collection, itemId, changedFields: [...changedFields] } }
      })).pipe(Effect.withSpan("AgentItemAudit.item"))

    return { item } as const
  })
}) {}
