/**
 * An agent's eval cases (`/ai-agents/{slug}/evals`) and their runs. Cases are
 * not part of the draft: a write neither locks the agent nor checks `If-Match`
 * nor bumps its revision; names are unique per agent, regexes and JSON
 * schemas are checked when written (`EvalCaseRules.ts`), and every write
 * records an `ai-agent.item.*` audit event (collection `evals`) in the same
 * transaction. `run` runs one case (disabled ones too) against the draft or a
 * published version and stores the run; `runSuite` runs the enabled suite
 * (what the publish gate runs, `AgentEvalRunner.enabledSuite`) the same way
 * and stores it as one run; a version's runs are listed newest first.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentVersionNotFound } from "../../domain/aiAgents/AiAgentVersion.js"
import {
  type AiAgentEval,
  type AiAgentEvalCreate,
  AiAgentEvalInvalid,
  type AiAgentEvalListParams,
  AiAgentEvalNameTaken,
  AiAgentEvalNotFound,
  type AiAgentEvalPatch
} from "../../domain/aiAgents/Eval.js"
import type { AiAgentEvalRunListParams, AiAgentEvalRunRequest } from "../../domain/aiAgents/EvalRun.js"
import { evalCaseProblems } from "../../domain/aiAgents/evals/EvalCaseRules.js"
import { type AiAgentEvalSuiteResult, suiteTotals } from "../../domain/aiAgents/EvalSuite.js"
import type { AiAgentEvalId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import type { FieldProblem } from "../../domain/FieldProblem.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import { AiAgentEvalRepo, type EvalWrite } from "../../persistence/aiAgents/AiAgentEvalRepo.js"
import { AiAgentEvalRunRepo } from "../../persistence/aiAgents/AiAgentEvalRunRepo.js"
import { AiAgentVersionRepo } from "../../persistence/aiAgents/AiAgentVersionRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { AgentEvalRunner } from "./AgentEvalRunner.js"
import { AgentItemAudit } from "./AgentItemAudit.js"
import { AgentSnapshots } from "./AgentSnapshots.js"
import { unstorableFields } from "./AgentTurns.js"

const notFound = (id: string) => new AiAgentEvalNotFound({ evalId: id, message: "No such eval case on this agent" })
const nameTaken = (name: string) =>
  new AiAgentEvalNameTaken({ name, message: "Another eval case of this agent has this name" })
const versionNotFound = (agent: AiAgent, version: number) =>
  new AiAgentVersionNotFound({ slug: agent.slug, version, message: `The agent has no version ${version}` })

/** The largest version number a database integer holds: a larger one names no version. */
const MAX_VERSION = 2_147_483_647

/** The problems of a case about to be stored: its expectations, and text the database cannot hold. */
const problemsOf = (write: EvalWrite): ReadonlyArray<FieldProblem> => [
  ...evalCaseProblems(write.expectations),
  ...unstorableFields({
    name: write.name,
    description: write.description,
    conversation: write.conversation,
    expectations: write.expectations,
    variables: write.variables,
    toolMocks: write.toolMocks
  }).map((field) => ({ field, message: "contains text that cannot be stored (a NUL character or broken Unicode)" }))
]

const refuseProblems = (write: EvalWrite) => {
  const problems = problemsOf(write)
  return problems.length === 0 ? Effect.void : Effect.fail(
    new AiAgentEvalInvalid({
      message: `The eval case is not valid: ${problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`
        .slice(0, 4000),
      problems
    })
  )
}

export class AiAgentEvals extends Effect.Service<AiAgentEvals>()("parley/services/aiAgents/AiAgentEvals", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const drafts = yield* AgentDraftLock
    const repo = yield* AiAgentEvalRepo
    const runs = yield* AiAgentEvalRunRepo
    const versions = yield* AiAgentVersionRepo
    const snapshots = yield* AgentSnapshots
    const runner = yield* AgentEvalRunner
    const audit = yield* AgentItemAudit
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    const versionOf = (agent: AiAgent, number: number) =>
      number > MAX_VERSION ? Effect.succeed(undefined) : versions.find(agent.workspaceId, agent.id, number)

    const list = Effect.fn("AiAgentEvals.list")(
      function*(principal: Principal, slug: string, params: typeof AiAgentEvalListParams.Type) {
        const agent = yield* drafts.find(principal, slug)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(
          agent.id,
          { tag: params.tag, enabled: params.enabled },
          limit,
          offset
        )
        return { items, total, limit, offset }
      }
    )

    const get = Effect.fn("AiAgentEvals.get")(function*(principal: Principal, slug: string, id: AiAgentEvalId) {
      const agent = yield* drafts.find(principal, slug)
      return (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
    })

    const create = Effect.fn("AiAgentEvals.create")(function*(
      principal: Principal,
      slug: string,
      input: typeof AiAgentEvalCreate.Type,
      origin: Origin
    ) {
      const agent = yield* drafts.find(principal, slug)
      const write: EvalWrite = { ...input, at: yield* now }
      yield* refuseProblems(write)
      const created = yield* repo.insert(uuidv7() as AiAgentEvalId, agent.workspaceId, agent.id, write)
      if (created === undefined) return yield* nameTaken(input.name)
      yield* audit.item(principal, origin, agent, "ai-agent.item.created", "evals", created.id, Object.keys(input))
      return created
    }, transactional)

    const update = Effect.fn("AiAgentEvals.update")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentEvalId,
      patch: typeof AiAgentEvalPatch.Type,
      origin: Origin
    ) {
      const agent = yield* drafts.find(principal, slug)
      const current: AiAgentEval = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
      const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([name]) => name)
      const write: EvalWrite = {
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        conversation: patch.conversation ?? current.conversation,
        expectations: patch.expectations ?? current.expectations,
        variables: patch.variables ?? current.variables,
        endUserId: patch.endUserId === undefined ? current.endUserId : patch.endUserId,
        toolMocks: patch.toolMocks ?? current.toolMocks,
        weight: patch.weight ?? current.weight,
        tags: patch.tags ?? current.tags,
        enabled: patch.enabled ?? current.enabled,
        at: yield* now
      }
      yield* refuseProblems(write)
      const updated = yield* repo.update(agent.id, id, write)
      if (updated === "taken") return yield* nameTaken(write.name)
      if (updated === undefined) return yield* notFound(id)
      yield* audit.item(principal, origin, agent, "ai-agent.item.updated", "evals", id, changed)
      return updated
    }, transactional)

    const remove = Effect.fn("AiAgentEvals.delete")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentEvalId,
      origin: Origin
    ) {
      const agent = yield* drafts.find(principal, slug)
      if (!(yield* repo.delete(agent.id, id))) return yield* notFound(id)
      yield* audit.item(principal, origin, agent, "ai-agent.item.deleted", "evals", id, [])
    }, transactional)

    /** What a run runs against: the version asked for, or the draft as it is now. */
    const targetOf = Effect.fn("AiAgentEvals.targetOf")(function*(
      agent: AiAgent,
      request: typeof AiAgentEvalRunRequest.Type
    ) {
      const base = { workspaceId: agent.workspaceId, agentId: agent.id }
      if (request.version !== undefined) {
        const version = yield* versionOf(agent, request.version)
        if (version === undefined) return yield* versionNotFound(agent, request.version)
        return { ...base, snapshot: version.snapshot, version: version.number, draftRevision: null }
      }
      const { revision, snapshot } = yield* snapshots.forTurn(agent)
      return { ...base, snapshot, version: null, draftRevision: revision }
    })

    /** Run one case against the draft (no `version`) or a published version, and store the run. */
    const run = Effect.fn("AiAgentEvals.run")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentEvalId,
      request: typeof AiAgentEvalRunRequest.Type
    ) {
      const agent = yield* drafts.find(principal, slug)
      const evalCase = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
      return yield* runner.run(yield* targetOf(agent, request), [evalCase], "manual")
    })

    /** Run the enabled suite against the draft or a published version, and store it as one run. */
    const runSuite = Effect.fn("AiAgentEvals.runSuite")(function*(
      principal: Principal,
      slug: string,
      request: typeof AiAgentEvalRunRequest.Type
    ) {
      const agent = yield* drafts.find(principal, slug)
      const target = yield* targetOf(agent, request)
      const cases = yield* runner.enabledSuite(agent)
      const stored = yield* runner.run(target, cases, "manual")
      return { run: stored, ...suiteTotals(stored.results) } satisfies AiAgentEvalSuiteResult
    })

    const listVersionRuns = Effect.fn("AiAgentEvals.listVersionRuns")(function*(
      principal: Principal,
      slug: string,
      number: AiAgentVersionNumber,
      params: typeof AiAgentEvalRunListParams.Type
    ) {
      const agent = yield* drafts.find(principal, slug)
      if ((yield* versionOf(agent, number)) === undefined) {
        return yield* versionNotFound(agent, number)
      }
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* runs.pageOfVersion(
        agent.id,
        number,
        { status: params.status, trigger: params.trigger },
        limit,
        offset
      )
      return { items, total, limit, offset }
    })

    return { list, get, create, update, delete: remove, run, runSuite, listVersionRuns } as const
  }),
  dependencies: [
    AgentDraftLock.Default,
    AgentItemAudit.Default,
    AgentSnapshots.Default,
    AiAgentEvalRepo.Default,
    AiAgentEvalRunRepo.Default,
    AiAgentVersionRepo.Default
  ]
}) {}
