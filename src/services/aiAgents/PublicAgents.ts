/**
 * Published agents as the public route sees them: a public token names the
 * agent's LIVE version. A token is looked up by its SHA-256 in the agent row
 * on every call, with no cache, so a rotation (which replaces the hash) or a
 * rollback (which moves the live version) holds on every node from the next
 * request. An unknown, rotated or malformed token, a deleted agent and one
 * never published all answer the same `PublicAgentNotFound`.
 *
 * For the public route and the runtime (H4):
 *   byToken(token: string) -> Effect<PublicAgent, PublicAgentNotFound>
 *   versionSnapshot(agentId, number) -> Effect<AiAgentSnapshot | undefined>
 */
import { Effect, Schema } from "effect"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import type { EmbedSettings } from "../../domain/aiAgents/EmbedSettings.js"
import type { AiAgentId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import { PublicAgentToken } from "../../domain/aiAgents/PublicToken.js"
import { PublicAgentNotFound } from "../../domain/aiAgents/PublicTurn.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { AiAgentVersionRepo } from "../../persistence/aiAgents/AiAgentVersionRepo.js"
import { hashToken } from "../OpaqueTokens.js"

/** The live version of the agent a public token names. */
export interface PublicAgent {
  readonly agent: AiAgent
  readonly version: AiAgentVersionNumber
  readonly snapshot: AiAgentSnapshot
  readonly embed: EmbedSettings
}

const notFound = () => new PublicAgentNotFound({ message: "No published AI agent has this public token" })
const isToken = Schema.is(PublicAgentToken)

export class PublicAgents extends Effect.Service<PublicAgents>()("parley/services/aiAgents/PublicAgents", {
  dependencies: [AiAgentRepo.Default, AiAgentVersionRepo.Default],
  effect: Effect.gen(function*() {
    const agents = yield* AiAgentRepo
    const versions = yield* AiAgentVersionRepo

    const byToken = Effect.fn("PublicAgents.byToken")(function*(token: string) {
      if (!isToken(token)) return yield* notFound()
      const named = yield* versions.byTokenHash(hashToken(token))
      if (named === undefined) return yield* notFound()
      const agent = yield* agents.findById(named.workspaceId, named.id)
      if (agent._tag === "None" || agent.value.liveVersion === null) return yield* notFound()
      const live = yield* versions.find(named.workspaceId, named.id, agent.value.liveVersion)
      if (live === undefined) return yield* notFound()
      return {
        agent: agent.value,
        version: live.number,
        snapshot: live.snapshot,
        embed: agent.value.embed
      } satisfies PublicAgent
    })

    const versionSnapshot = Effect.fn("PublicAgents.versionSnapshot")(
      function*(agentId: AiAgentId, number: number) {
        const version = yield* versions.findByAgent(agentId, number)
        return version?.snapshot
      }
    )

    return { byToken, versionSnapshot } as const
  })
}) {}
