/**
 * The start and end of a write to an agent's draft collections, inside the
 * writer's transaction: `lock` takes the agent's row (so the draft's writers
 * take turns: positions and name checks cannot interleave) and checks the
 * client's `If-Match` against the revision; `bump` moves the revision on once
 * the write is done, so a published version can tell the draft changed.
 */
import { Clock, Effect } from "effect"
import { type AiAgent, AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"

/** No agent of this slug in the caller's workspace. */
export const agentNotFound = (slug: string) =>
  new AiAgentNotFound({ slug, message: `No AI agent with the slug ${slug} in this workspace` })

export class AgentDraftLock extends Effect.Service<AgentDraftLock>()("parley/services/aiAgents/AgentDraftLock", {
  effect: Effect.gen(function*() {
    const agents = yield* AiAgentRepo

    /** The agent, its row locked until the transaction ends; a stale `ifMatch` is a `RevisionConflict`. */
    const lock = Effect.fn("AgentDraftLock.lock")(
      function*(principal: Principal, slug: string, ifMatch: Revision | undefined) {
        const found = yield* agents.lockBySlug(principal.workspaceId, slug)
        if (found._tag === "None") return yield* agentNotFound(slug)
        const agent = found.value
        if (ifMatch !== undefined && ifMatch !== agent.revision) {
          return yield* new RevisionConflict({
            expected: ifMatch,
            actual: agent.revision,
            message: `The agent's draft is at revision ${agent.revision}, not ${ifMatch}`
          })
        }
        return agent
      }
    )

    /** The agent, read without a lock (for reads of its collections). */
    const find = Effect.fn("AgentDraftLock.find")(function*(principal: Principal, slug: string) {
      const found = yield* agents.findBySlug(principal.workspaceId, slug)
      return found._tag === "None" ? yield* agentNotFound(slug) : found.value
    })

    /** The draft's revision moved on by one (the agent's row is locked by `lock`). */
    const bump = Effect.fn("AgentDraftLock.bump")(function*(agent: AiAgent) {
      const at = new Date(yield* Clock.currentTimeMillis)
      const bumped = yield* agents.bumpRevision(agent.workspaceId, agent.id, undefined, at)
      if (bumped._tag !== "Bumped") return yield* agentNotFound(agent.slug)
      return bumped.revision
    })

    return { lock, find, bump } as const
  }),
  dependencies: [AiAgentRepo.Default]
}) {}
