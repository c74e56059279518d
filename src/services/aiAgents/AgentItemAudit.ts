/**
 * The audit event of a write to an item of an agent's draft collections
 * (`ai-agent.item.created|updated|deleted`), with the collection, the item's
 * id and the names of the fields it changed (never their values), through
 * the area's `AgentAudit`. The one place the tasks and tools services record
 * them.
 */
import { Effect } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentAuditAction } from "../../domain/aiAgents/AiAgentAuditEvent.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { AgentAudit } from "./AgentAudit.js"

/** The item actions. */
export type ItemAction = Extract<AiAgentAuditAction, `ai-agent.item.${string}`>

/** The draft collections these services write. */
export type ItemCollection = "tasks" | "tools" | "guardrails" | "knowledge" | "evals"

export class AgentItemAudit extends Effect.Service<AgentItemAudit>()("parley/services/aiAgents/AgentItemAudit", {
  effect: Effect.gen(function*() {
    const audit = yield* AgentAudit

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
      audit.record(principal, origin, agent.id, action, { collection, itemId, changedFields }).pipe(
        Effect.withSpan("AgentItemAudit.item")
      )

    return { item } as const
  }),
  dependencies: [AgentAudit.Default]
}) {}
