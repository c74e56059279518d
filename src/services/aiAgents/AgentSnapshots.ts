/**
 * What an agent runs, as one value: its draft as it is now (the playground,
 * and what `publish` freezes) or a published version's snapshot (public
 * turns). Guardrails and knowledge come with the next issue; until then a
 * snapshot has none.
 */
import { Effect } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { AgentDraftCollectionsRepo } from "../../persistence/aiAgents/AgentDraftCollectionsRepo.js"

/** A draft frozen as a snapshot, with the revision it was read at. */
export interface DraftSnapshot {
  readonly snapshot: AiAgentSnapshot
  readonly revision: AiAgent["revision"]
}

export class AgentSnapshots extends Effect.Service<AgentSnapshots>()("parley/services/aiAgents/AgentSnapshots", {
  dependencies: [AgentDraftCollectionsRepo.Default],
  effect: Effect.gen(function*() {
    const collections = yield* AgentDraftCollectionsRepo

    return {
      /**
       * The agent's draft as a snapshot. Read inside the transaction that
       * locked the agent's row (or that bumped its revision), the collections
       * are those of `agent.revision`.
       */
      draft: (agent: AiAgent) =>
        Effect.map(
          Effect.all([collections.tasks(agent.id), collections.tools(agent.id)], { concurrency: 2 }),
          ([tasks, tools]): DraftSnapshot => ({
            revision: agent.revision,
            snapshot: {
              name: agent.name,
              description: agent.description,
              instructions: agent.instructions,
              modelSettings: agent.modelSettings,
              conversation: agent.conversation,
              tasks,
              tools,
              guardrails: [],
              knowledgeIds: []
            }
          })
        ).pipe(Effect.withSpan("AgentSnapshots.draft"))
    } as const
  })
}) {}
