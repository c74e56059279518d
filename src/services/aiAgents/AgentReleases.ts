/**
 * An agent's release boundary: publish (check the draft, snapshot it as the
 * next version, make it live, and on the first publish issue the public
 * token), the versions, rollback, token rotation and the embed.
 *
 * A publish is a write to the agent: it takes `If-Match`, locks the agent's
 * row and moves the revision on (the new version snapshots that revision),
 * so two publishes from the same revision cannot both succeed and the agent
 * answers `hasUnpublishedChanges: false` right after. The eval gate
 * (agent-ops `publishGates`) comes with the next issue: `evalGate` is null,
 * and a workspace that asks for a gate publishes without one for now.
 *
 * The public token is 256 random bits (`agt_` + 43 base64url characters);
 * only its SHA-256 and a hint are stored, and `PublicAgents` reads the hash
 * from the row on every request, so a rotation holds at once on every node.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect } from "effect"
import { PublicUrl } from "../../config/Settings.js"
import { agentEmbed } from "../../domain/aiAgents/AgentEmbedView.js"
import { type AiAgent, AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentAuditEventListParams } from "../../domain/aiAgents/AiAgentAuditEvent.js"
import { AiAgentEmbed } from "../../domain/aiAgents/AiAgentEmbed.js"
import { AiAgentVersionNotFound } from "../../domain/aiAgents/AiAgentVersion.js"
import { draftProblems, draftSecretNames, workspaceToolIds } from "../../domain/aiAgents/DraftChecks.js"
import type { AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import { AiAgentNotPublished, type PublicAgentToken } from "../../domain/aiAgents/PublicToken.js"
import { AiAgentDraftNotPublishable, PublishResult } from "../../domain/aiAgents/Publish.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type ListParams, pageOf } from "../../domain/Pagination.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { AiAgentVersionRepo } from "../../persistence/aiAgents/AiAgentVersionRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { SecretValues } from "../workspace/SecretValues.js"
import { AgentHistory } from "./AgentHistory.js"
import { AgentSnapshots } from "./AgentSnapshots.js"

const agentNotFound = (slug: string) => new AiAgentNotFound({ slug, message: "No AI agent with this slug" })

/** A new public token and what is stored of it. */
const issueToken = () => {
  const token = generateToken("agt_") as PublicAgentToken
  return { token, hash: hashToken(token), hint: `agt_...${token.slice(-4)}` }
}

export class AgentReleases extends Effect.Service<AgentReleases>()("parley/services/aiAgents/AgentReleases", {
  dependencies: [
    AiAgentRepo.Default,
    AiAgentVersionRepo.Default,
    AgentHistory.Default,
    AgentSnapshots.Default,
    WorkspaceToolRepo.Default
  ],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const agents = yield* AiAgentRepo
    const versions = yield* AiAgentVersionRepo
    const snapshots = yield* AgentSnapshots
    const history = yield* AgentHistory
    const secrets = yield* SecretValues
    const workspaceTools = yield* WorkspaceToolRepo
    const llm = yield* LlmInForce
    const publicUrl = yield* PublicUrl
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const agentOf = Effect.fn("AgentReleases.agentOf")(function*(principal: Principal, slug: string) {
      const agent = yield* agents.findBySlug(principal.workspaceId, slug)
      return agent._tag === "Some" ? agent.value : yield* agentNotFound(slug)
    })
    const lockedAgent = Effect.fn("AgentReleases.lockedAgent")(function*(principal: Principal, slug: string) {
      const agent = yield* agents.lockBySlug(principal.workspaceId, slug)
      return agent._tag === "Some" ? agent.value : yield* agentNotFound(slug)
    })
    const reread = Effect.fn("AgentReleases.reread")(function*(agent: AiAgent) {
      const found = yield* agents.findById(agent.workspaceId, agent.id)
      return found._tag === "Some" ? found.value : yield* Effect.die(new Error("the agent vanished under its lock"))
    })

    const publish = Effect.fn("AgentReleases.publish")(function*(
      principal: Principal,
      slug: string,
      ifMatch: Revision | undefined,
      notes: string | undefined,
      origin: Origin
    ) {
      const locked = yield* lockedAgent(principal, slug)
      if (ifMatch !== undefined && locked.revision !== ifMatch) {
        return yield* new RevisionConflict({
          expected: ifMatch,
          actual: locked.revision,
          message: `The agent is at revision ${locked.revision}, not ${ifMatch}: review the draft again`
        })
      }
      const { snapshot } = yield* snapshots.draft(locked)
      const secretNames = draftSecretNames(snapshot)
      const missingSecrets = secretNames.length === 0
        ? []
        : yield* secrets.missing(principal.workspaceId, secretNames)
      const toolIds = workspaceToolIds(snapshot)
      const existingTools = yield* Effect.forEach(
        [...new Set(toolIds)],
        (id) => Effect.map(workspaceTools.find(principal.workspaceId, id as WorkspaceToolId), (tool) => tool?.id)
      )
      const inForce = yield* llm.resolve(principal.workspaceId)
      const problems = draftProblems(snapshot, {
        existingSecrets: new Set(secretNames.filter((name) => !missingSecrets.includes(name))),
        existingWorkspaceTools: new Set(existingTools.flatMap((id) => id === undefined ? [] : [id])),
        connectedProviders: new Set(
          [inForce.primary, inForce.fallback].flatMap((entry) => entry === null ? [] : [entry.connection.provider])
        )
      })
      if (problems.length > 0) {
        return yield* new AiAgentDraftNotPublishable({
          slug: locked.slug,
          problems,
          message: `The draft cannot be published: ${problems.map((problem) => problem.message).join("; ")}`
            .slice(0, 4000)
        })
      }
      const at = yield* now
      const bumped = yield* agents.bumpRevision(principal.workspaceId, locked.id, locked.revision, at)
      if (bumped._tag !== "Bumped") return yield* Effect.die(new Error("the locked agent's revision moved"))
      const number = ((yield* versions.latestNumber(locked.id)) + 1) as AiAgentVersionNumber
      yield* versions.insert({
        workspaceId: principal.workspaceId,
        agentId: locked.id,
        number,
        notes: notes ?? "",
        revision: bumped.revision,
        createdBy: actorOf(principal),
        snapshot,
        at
      })
      yield* versions.setLive(locked.id, number)
      const token = locked.publicTokenHash === null ? issueToken() : undefined
      if (token !== undefined) yield* versions.setPublicToken(locked.id, token.hash, token.hint)
      yield* history.release(principal, origin, locked, "ai-agent.published", {
        version: number,
        previousVersion: locked.liveVersion
      })
      const version = yield* versions.find(principal.workspaceId, locked.id, number)
      if (version === undefined) return yield* Effect.die(new Error("the version just inserted is missing"))
      return PublishResult.make({
        version,
        agent: yield* reread(locked),
        publicToken: token?.token ?? null,
        evalGate: null
      })
    }, transactional)

    const rotatePublicToken = Effect.fn("AgentReleases.rotatePublicToken")(
      function*(principal: Principal, slug: string, origin: Origin) {
        const agent = yield* lockedAgent(principal, slug)
        if (agent.liveVersion === null) {
          return yield* new AiAgentNotPublished({
            slug: agent.slug,
            message: "The agent has never been published, so it has no public token yet"
          })
        }
        const token = issueToken()
        yield* versions.setPublicToken(agent.id, token.hash, token.hint)
        yield* history.release(principal, origin, agent, "ai-agent.public-token-rotated", {
          version: null,
          previousVersion: null
        })
        return {
          publicToken: token.token,
          hint: token.hint,
          issuedAt: DateTime.unsafeMake(yield* now) as DateTime.Utc
        }
      },
      transactional
    )

    const rollback = Effect.fn("AgentReleases.rollback")(
      function*(principal: Principal, slug: string, number: AiAgentVersionNumber, origin: Origin) {
        const agent = yield* lockedAgent(principal, slug)
        const version = yield* versions.find(principal.workspaceId, agent.id, number)
        if (version === undefined) {
          return yield* new AiAgentVersionNotFound({
            slug: agent.slug,
            version: number,
            message: `The agent has no version ${number}`
          })
        }
        if (agent.liveVersion === number) return agent
        yield* versions.setLive(agent.id, number)
        yield* history.release(principal, origin, agent, "ai-agent.rolled-back", {
          version: number,
          previousVersion: agent.liveVersion
        })
        return yield* reread(agent)
      },
      transactional
    )

    const listVersions = Effect.fn("AgentReleases.listVersions")(
      function*(principal: Principal, slug: string, params: ListParams) {
        const agent = yield* agentOf(principal, slug)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* versions.page(principal.workspaceId, agent.id, limit, offset)
        return { items, total, limit, offset }
      }
    )

    const getEmbed = Effect.fn("AgentReleases.getEmbed")(function*(principal: Principal, slug: string) {
      const agent = yield* agentOf(principal, slug)
      const live = agent.liveVersion === null
        ? undefined
        : yield* versions.find(principal.workspaceId, agent.id, agent.liveVersion)
      return AiAgentEmbed.make(agentEmbed(publicUrl, agent, live?.snapshot) as AiAgentEmbed)
    })

    const listAuditEvents = Effect.fn("AgentReleases.listAuditEvents")(
      function*(principal: Principal, slug: string, params: typeof AiAgentAuditEventListParams.Type) {
        return yield* history.list(principal, yield* agentOf(principal, slug), params)
      }
    )

    return { publish, rotatePublicToken, rollback, listVersions, getEmbed, listAuditEvents } as const
  })
}) {}
