/**
 * An agent's release boundary: publish (check the draft, snapshot it as the
 * next version, make it live, and on the first publish issue the public
 * token), the versions, rollback, token rotation and the embed.
 *
 * A publish is a write to the agent: it takes `If-Match`, locks the agent's
 * row and moves the revision on (the new version snapshots that revision),
 * so two publishes from the same revision cannot both succeed and the agent
 * answers `hasUnpublishedChanges: false` right after.
 *
 * When the workspace's agent-ops `publishGates.runEvalsOnPublish` is on, the
 * enabled eval suite (`AgentEvalRunner.enabledSuite`) runs first against the
 * candidate (the draft at the revision about to become version N), outside
 * the transaction: model calls do not hold the agent's row. With
 * `mustNotRegress` and a live version, the same suite runs against the live
 * version in the same publish, and that run's score is "the live version's
 * score" (and becomes its `evalScore`), so both scores come from the same
 * cases, model and judge. A candidate under `minimumScore` or under the live
 * score is refused (422
 * `AiAgentPublishRefused`, with the failing cases); its run stays stored
 * against the draft revision. Otherwise the transaction checks that the draft
 * has not moved since (else `RevisionConflict`), publishes, and moves the run
 * to the new version as its `evalScore`/`evalRunId`.
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
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { AiAgentVersionNotFound } from "../../domain/aiAgents/AiAgentVersion.js"
import { draftProblems, draftSecretNames, workspaceToolIds } from "../../domain/aiAgents/DraftChecks.js"
import { gateReport, refusalMessage, refusalReasons } from "../../domain/aiAgents/evals/PublishGate.js"
import type { AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import { AiAgentNotPublished, type PublicAgentToken } from "../../domain/aiAgents/PublicToken.js"
import { AiAgentDraftNotPublishable, AiAgentPublishRefused, PublishResult } from "../../domain/aiAgents/Publish.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type ListParams, pageOf } from "../../domain/Pagination.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import type { PublishGates } from "../../domain/settings/AgentOpsSettings.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { AiAgentEvalRunRepo } from "../../persistence/aiAgents/AiAgentEvalRunRepo.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { AiAgentVersionRepo } from "../../persistence/aiAgents/AiAgentVersionRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { WorkspaceToolRepo } from "../../persistence/workspace/WorkspaceToolRepo.js"
import { generateToken, hashToken } from "../OpaqueTokens.js"
import { AgentOps } from "../settings/AgentOps.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { SecretValues } from "../workspace/SecretValues.js"
import { AgentEvalRunner } from "./AgentEvalRunner.js"
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
    WorkspaceToolRepo.Default,
    AiAgentEvalRunRepo.Default
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
    const agentOps = yield* AgentOps
    const evalRuns = yield* AiAgentEvalRunRepo
    const evalRunner = yield* AgentEvalRunner
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

    /** The draft's problems that block a publish, as a failure; nothing when there are none. */
    const checkDraft = Effect.fn("AgentReleases.checkDraft")(
      function*(principal: Principal, agent: AiAgent, snapshot: AiAgentSnapshot) {
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
            slug: agent.slug,
            problems,
            message: `The draft cannot be published: ${problems.map((problem) => problem.message).join("; ")}`
              .slice(0, 4000)
          })
        }
      }
    )

    const revisionConflict = (expected: Revision, actual: Revision, why: string) =>
      new RevisionConflict({ expected, actual, message: `The agent is at revision ${actual}, not ${expected}: ${why}` })

    /**
     * The eval gate: the enabled suite against the candidate (and the live
     * version when it must not regress), refusing a candidate that scores too
     * low. Runs outside any transaction.
     */
    const evalGate = Effect.fn("AgentReleases.evalGate")(function*(
      principal: Principal,
      slug: string,
      ifMatch: Revision | undefined,
      gates: typeof PublishGates.Type
    ) {
      const agent = yield* agentOf(principal, slug)
      if (ifMatch !== undefined && agent.revision !== ifMatch) {
        return yield* revisionConflict(ifMatch, agent.revision, "review the draft again")
      }
      const { revision, snapshot } = yield* snapshots.draft(agent)
      yield* checkDraft(principal, agent, snapshot)
      const cases = yield* evalRunner.enabledSuite(agent).pipe(
        Effect.catchTag("AiAgentEvalSuiteNotRunnable", (refused) =>
          new AiAgentDraftNotPublishable({
            slug: agent.slug,
            problems: [{
              code: refused.enabledCases === 0 ? "no-eval-cases" : "too-many-eval-cases",
              message: refused.message,
              path: "evals"
            }],
            message:
              `The draft cannot be published: the workspace's publish gate runs the eval suite. ${refused.message}`
          }))
      )
      const base = { workspaceId: agent.workspaceId, agentId: agent.id }
      const live = gates.mustNotRegress && agent.liveVersion !== null
        ? yield* versions.find(agent.workspaceId, agent.id, agent.liveVersion)
        : undefined
      const [candidate, liveRun] = yield* Effect.all([
        evalRunner.run({ ...base, snapshot, version: null, draftRevision: revision }, cases, "publish-gate"),
        live === undefined ? Effect.succeed(undefined) : evalRunner.run(
          { ...base, snapshot: live.snapshot, version: live.number, draftRevision: null },
          cases,
          "publish-gate"
        )
      ], { concurrency: 2 })
      if (live !== undefined && liveRun !== undefined) {
        yield* evalRuns.scoreVersion(agent.id, liveRun.id, live.number, liveRun.score ?? 0)
      }
      const gateRun = { id: candidate.id, score: candidate.score ?? 0, results: candidate.results }
      const liveScore = liveRun?.score ?? null
      const report = gateReport(gateRun, gates, liveScore)
      const reasons = refusalReasons(gateRun.score, gates, liveScore)
      if (reasons.length > 0) {
        return yield* new AiAgentPublishRefused({
          slug: agent.slug,
          reasons,
          evalGate: report,
          message: refusalMessage(report, reasons)
        })
      }
      return { revision, runId: candidate.id, report }
    })

    /** The publish itself, in one transaction: the draft as version N, live; with the gate's run attached. */
    const release = Effect.fn("AgentReleases.release")(function*(
      principal: Principal,
      slug: string,
      ifMatch: Revision | undefined,
      notes: string | undefined,
      origin: Origin,
      gate: Effect.Effect.Success<ReturnType<typeof evalGate>> | undefined
    ) {
      const locked = yield* lockedAgent(principal, slug)
      if (ifMatch !== undefined && locked.revision !== ifMatch) {
        return yield* revisionConflict(ifMatch, locked.revision, "review the draft again")
      }
      if (gate !== undefined && locked.revision !== gate.revision) {
        return yield* revisionConflict(gate.revision, locked.revision, "the draft changed while its evals ran")
      }
      const { snapshot } = yield* snapshots.draft(locked)
      yield* checkDraft(principal, locked, snapshot)
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
      if (gate !== undefined) yield* evalRuns.attachToVersion(locked.id, gate.runId, number)
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
        evalGate: gate?.report ?? null
      })
    }, transactional)

    const publish = Effect.fn("AgentReleases.publish")(function*(
      principal: Principal,
      slug: string,
      ifMatch: Revision | undefined,
      notes: string | undefined,
      origin: Origin
    ) {
      const { publishGates } = yield* agentOps.get(principal.workspaceId)
      const gate = publishGates.runEvalsOnPublish
        ? yield* evalGate(principal, slug, ifMatch, publishGates)
        : undefined
      return yield* release(principal, slug, ifMatch, notes, origin, gate)
    })

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
