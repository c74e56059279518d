/**
 * What an agent runs, as one value: its draft as it is now (the playground,
 * and what `publish` freezes) or a published version's snapshot (public
 * turns).
 *
 * Turns read snapshots through a node-wide cache: a version is immutable,
 * and a draft's tasks, tools and guardrails change only with its revision (every edit of
 * them bumps it, the agent's row locked), so `forTurn` reads the agent's row
 * and reuses the collections it read at that revision. A fill that races an
 * edit can label the edit's collections with the revision before it; the
 * edit's commit moves every later read to the new revision, so only turns
 * that had read the old row already see them, as they would without the cache.
 */
import { Effect, Option, Schema } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { AgentConversationRepo } from "../../persistence/aiAgents/AgentConversationRepo.js"
import { AgentDraftCollectionsRepo } from "../../persistence/aiAgents/AgentDraftCollectionsRepo.js"
import { AiAgentGuardrailRepo } from "../../persistence/aiAgents/AiAgentGuardrailRepo.js"

/** A draft frozen as a snapshot, with the revision it was read at. */
export interface DraftSnapshot {
  readonly snapshot: AiAgentSnapshot
  readonly revision: AiAgent["revision"]
}

/** How many agents' drafts and how many versions a node keeps. */
const CACHED = 500

const decodeSnapshot = Schema.decodeUnknown(AiAgentSnapshot)

/** A map that forgets its oldest entry beyond `CACHED` (insertion order is age order). */
const bounded = <A>() => {
  const entries = new Map<string, A>()
  return {
    get: (key: string) => entries.get(key),
    set: (key: string, value: A) => {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > CACHED) entries.delete(entries.keys().next().value!)
    }
  }
}

type Collections = Pick<AiAgentSnapshot, "tasks" | "tools" | "guardrails" | "knowledgeIds">

const snapshotOf = (agent: AiAgent, { guardrails, knowledgeIds, tasks, tools }: Collections): DraftSnapshot => ({
  revision: agent.revision,
  snapshot: {
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    modelSettings: agent.modelSettings,
    conversation: agent.conversation,
    tasks,
    tools,
    guardrails,
    knowledgeIds
  }
})

export class AgentSnapshots extends Effect.Service<AgentSnapshots>()("parley/services/aiAgents/AgentSnapshots", {
  dependencies: [AgentDraftCollectionsRepo.Default, AgentConversationRepo.Default, AiAgentGuardrailRepo.Default],
  effect: Effect.gen(function*() {
    const collections = yield* AgentDraftCollectionsRepo
    const conversations = yield* AgentConversationRepo
    const guardrailRepo = yield* AiAgentGuardrailRepo
    const drafts = bounded<{ readonly revision: number; readonly collections: Collections }>()
    const versions = bounded<AiAgentSnapshot>()

    const read = (agent: AiAgent) =>
      Effect.map(
        Effect.all([
          collections.tasks(agent.id),
          collections.tools(agent.id),
          guardrailRepo.all(agent.id),
          collections.knowledgeIds(agent.id)
        ], { concurrency: 4 }),
        ([tasks, tools, guardrails, knowledgeIds]): Collections => ({ tasks, tools, guardrails, knowledgeIds })
      )

    return {
      /**
       * The agent's draft as a snapshot. Read inside the transaction that
       * locked the agent's row (or that bumped its revision), the collections
       * are those of `agent.revision`.
       */
      draft: (agent: AiAgent) =>
        Effect.map(read(agent), (read) => snapshotOf(agent, read)).pipe(
          Effect.withSpan("AgentSnapshots.draft")
        ),

      /** The draft a turn runs: `draft`, the collections reused while the revision is the same. */
      forTurn: (agent: AiAgent) =>
        Effect.suspend(() => {
          const cached = drafts.get(agent.id)
          if (cached !== undefined && cached.revision === agent.revision) {
            return Effect.succeed(snapshotOf(agent, cached.collections))
          }
          return Effect.map(read(agent), (read) => {
            drafts.set(agent.id, { revision: agent.revision, collections: read })
            return snapshotOf(agent, read)
          })
        }).pipe(Effect.withSpan("AgentSnapshots.forTurn")),

      /** A published version's snapshot, if the agent has that version. */
      version: (workspaceId: string, agentId: string, number: number) =>
        Effect.suspend(() => {
          const key = `${workspaceId}/${agentId}/${number}`
          const cached = versions.get(key)
          if (cached !== undefined) return Effect.succeed(Option.some(cached))
          return Effect.flatMap(
            conversations.versionSnapshot(workspaceId, agentId, number),
            Option.match({
              onNone: () => Effect.succeedNone,
              onSome: (stored) =>
                Effect.map(Effect.orDie(decodeSnapshot(stored)), (snapshot) => {
                  versions.set(key, snapshot)
                  return Option.some(snapshot)
                })
            })
          )
        }).pipe(Effect.withSpan("AgentSnapshots.version"))
    } as const
  })
}) {}
