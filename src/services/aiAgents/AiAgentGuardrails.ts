/**
 * An agent's guardrails (`/ai-agents/{slug}/guardrails`): input and output
 * rules with their actions. A write checks the rules that span fields
 * (`guardrailProblems`) and that the name is free, bumps the draft's revision
 * and records an `ai-agent.item.*` audit event, in one transaction that has
 * locked the agent's row (`AgentDraftLock`).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import {
  type AiAgentGuardrailCreate,
  AiAgentGuardrailInvalid,
  type AiAgentGuardrailListParams,
  AiAgentGuardrailNameTaken,
  AiAgentGuardrailNotFound,
  type AiAgentGuardrailPatch
} from "../../domain/aiAgents/Guardrail.js"
import { guardrailProblems } from "../../domain/aiAgents/guardrails/GuardrailRules.js"
import type { AiAgentGuardrailId } from "../../domain/aiAgents/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Revision } from "../../domain/Revision.js"
import { AiAgentGuardrailRepo, type GuardrailWrite } from "../../persistence/aiAgents/AiAgentGuardrailRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { AgentItemAudit } from "./AgentItemAudit.js"

const notFound = (id: string) =>
  new AiAgentGuardrailNotFound({ guardrailId: id, message: "No such guardrail on this agent" })
const nameTaken = (name: string) =>
  new AiAgentGuardrailNameTaken({ name, message: "Another guardrail of this agent has this name" })

/** The write, or the problems that refuse it. */
const checked = (write: GuardrailWrite) => {
  const problems = guardrailProblems(write)
  return problems.length === 0 ? Effect.succeed(write) : Effect.fail(
    new AiAgentGuardrailInvalid({
      message: problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ").slice(0, 2000),
      problems
    })
  )
}

export class AiAgentGuardrails extends Effect.Service<AiAgentGuardrails>()(
  "parley/services/aiAgents/AiAgentGuardrails",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const transactional = transaction(sql)
      const drafts = yield* AgentDraftLock
      const repo = yield* AiAgentGuardrailRepo
      const audit = yield* AgentItemAudit
      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

      const list = Effect.fn("AiAgentGuardrails.list")(
        function*(principal: Principal, slug: string, params: typeof AiAgentGuardrailListParams.Type) {
          const agent = yield* drafts.find(principal, slug)
          const { limit, offset } = pageOf(params)
          const { items, total } = yield* repo.page(
            agent.id,
            { stage: params.stage, kind: params.kind },
            limit,
            offset
          )
          return { items, total, limit, offset }
        }
      )

      const get = Effect.fn("AiAgentGuardrails.get")(
        function*(principal: Principal, slug: string, id: AiAgentGuardrailId) {
          const agent = yield* drafts.find(principal, slug)
          return (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
        }
      )

      const create = Effect.fn("AiAgentGuardrails.create")(function*(
        principal: Principal,
        slug: string,
        input: typeof AiAgentGuardrailCreate.Type,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        const write = yield* checked({
          name: input.name,
          stage: input.stage,
          rule: input.rule,
          action: input.action,
          enabled: input.enabled,
          message: input.message,
          at: yield* now
        })
        if (yield* repo.nameTaken(agent.id, input.name)) return yield* nameTaken(input.name)
        const guardrail = yield* repo.insert(uuidv7() as AiAgentGuardrailId, agent.workspaceId, agent.id, write)
        yield* drafts.bump(agent)
        yield* audit.item(
          principal,
          origin,
          agent,
          "ai-agent.item.created",
          "guardrails",
          guardrail.id,
          Object.keys(input)
        )
        return guardrail
      }, transactional)

      const update = Effect.fn("AiAgentGuardrails.update")(function*(
        principal: Principal,
        slug: string,
        id: AiAgentGuardrailId,
        patch: typeof AiAgentGuardrailPatch.Type,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        const current = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
        const write = yield* checked({
          name: patch.name ?? current.name,
          stage: patch.stage ?? current.stage,
          rule: patch.rule ?? current.rule,
          action: patch.action ?? current.action,
          enabled: patch.enabled ?? current.enabled,
          message: patch.message === undefined ? current.message : patch.message,
          at: yield* now
        })
        if (write.name !== current.name && (yield* repo.nameTaken(agent.id, write.name, id))) {
          return yield* nameTaken(write.name)
        }
        const guardrail = yield* repo.update(agent.id, id, write)
        yield* drafts.bump(agent)
        const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([name]) => name)
        yield* audit.item(principal, origin, agent, "ai-agent.item.updated", "guardrails", id, changed)
        return guardrail
      }, transactional)

      const remove = Effect.fn("AiAgentGuardrails.delete")(function*(
        principal: Principal,
        slug: string,
        id: AiAgentGuardrailId,
        ifMatch: Revision | undefined,
        origin: Origin
      ) {
        const agent = yield* drafts.lock(principal, slug, ifMatch)
        if ((yield* repo.find(agent.id, id)) === undefined) return yield* notFound(id)
        yield* repo.delete(agent.id, id)
        yield* drafts.bump(agent)
        yield* audit.item(principal, origin, agent, "ai-agent.item.deleted", "guardrails", id, [])
      }, transactional)

      return { list, get, create, update, delete: remove } as const
    }),
    dependencies: [AgentDraftLock.Default, AgentItemAudit.Default, AiAgentGuardrailRepo.Default]
  }
) {}
