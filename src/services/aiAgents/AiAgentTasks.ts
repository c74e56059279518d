/**
 * An agent's tasks (`/ai-agents/{slug}/tasks`): ordered goals with success
 * criteria. Every write locks the agent's row first (`AgentDraftLock`), so
 * positions stay a dense 0..n-1 sequence under concurrent writers and titles
 * stay unique; it checks `If-Match`, bumps the draft's revision and records
 * an `ai-agent.item.*` audit event, all in one transaction.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentTaskId, AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import {
  type AiAgentTask,
  type AiAgentTaskCreate,
  type AiAgentTaskListParams,
  AiAgentTaskNotFound,
  type AiAgentTaskPatch,
  AiAgentTaskTitleTaken,
  AiAgentTaskToolsUnknown
} from "../../domain/aiAgents/Task.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Revision } from "../../domain/Revision.js"
import { AiAgentTaskRepo } from "../../persistence/aiAgents/AiAgentTaskRepo.js"
import { AiAgentToolRepo } from "../../persistence/aiAgents/AiAgentToolRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AgentDraftLock } from "./AgentDraftLock.js"
import { AgentItemAudit } from "./AgentItemAudit.js"

const notFound = (id: string) => new AiAgentTaskNotFound({ taskId: id, message: "No such task on this agent" })
const titleTaken = (title: string) =>
  new AiAgentTaskTitleTaken({ title, message: "Another task of this agent has this title" })
const positionPast = (position: number, last: number) =>
  new ValidationFailed({
    message: `position ${position} is past the end of the agent's tasks (the last position allowed is ${last})`,
    fields: ["position"]
  })

export class AiAgentTasks extends Effect.Service<AiAgentTasks>()("parley/services/aiAgents/AiAgentTasks", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const drafts = yield* AgentDraftLock
    const repo = yield* AiAgentTaskRepo
    const tools = yield* AiAgentToolRepo
    const audit = yield* AgentItemAudit
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const checkTools = Effect.fn("AiAgentTasks.checkTools")(
      function*(agent: AiAgent, ids: ReadonlyArray<AiAgentToolId>) {
        const unknown = yield* tools.unknownIds(agent.id, ids)
        if (unknown.length > 0) {
          return yield* new AiAgentTaskToolsUnknown({
            toolIds: unknown,
            message: `Not tools of this agent: ${unknown.join(", ")}`
          })
        }
      }
    )

    const list = Effect.fn("AiAgentTasks.list")(
      function*(principal: Principal, slug: string, params: typeof AiAgentTaskListParams.Type) {
        const agent = yield* drafts.find(principal, slug)
        const { limit, offset } = pageOf(params)
        const { items, total } = yield* repo.page(agent.id, params.status, limit, offset)
        return { items, total, limit, offset }
      }
    )

    const get = Effect.fn("AiAgentTasks.get")(function*(principal: Principal, slug: string, id: AiAgentTaskId) {
      const agent = yield* drafts.find(principal, slug)
      return (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
    })

    const create = Effect.fn("AiAgentTasks.create")(function*(
      principal: Principal,
      slug: string,
      input: typeof AiAgentTaskCreate.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      const count = yield* repo.count(agent.id)
      const position = input.position ?? count
      if (position > count) return yield* positionPast(position, count)
      if (yield* repo.titleTaken(agent.id, input.title)) return yield* titleTaken(input.title)
      yield* checkTools(agent, input.requiredToolIds)
      const task = yield* repo.insert(uuidv7() as AiAgentTaskId, agent.workspaceId, agent.id, position, {
        title: input.title,
        goal: input.goal,
        successCriteria: input.successCriteria,
        requiredToolIds: input.requiredToolIds,
        status: input.status,
        at: yield* now
      })
      yield* drafts.bump(agent)
      yield* audit.item(principal, origin, agent, "ai-agent.item.created", "tasks", task.id, Object.keys(input))
      return task
    }, transactional)

    const update = Effect.fn("AiAgentTasks.update")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentTaskId,
      patch: typeof AiAgentTaskPatch.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      const current = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
      const count = yield* repo.count(agent.id)
      const to = patch.position ?? current.position
      if (to > count - 1) return yield* positionPast(to, count - 1)
      const title = patch.title ?? current.title
      if (title !== current.title && (yield* repo.titleTaken(agent.id, title, id))) return yield* titleTaken(title)
      const requiredToolIds = patch.requiredToolIds ?? current.requiredToolIds
      if (patch.requiredToolIds !== undefined) yield* checkTools(agent, requiredToolIds)
      const task = yield* repo.update(agent.id, id, current.position, to, {
        title,
        goal: patch.goal ?? current.goal,
        successCriteria: patch.successCriteria ?? current.successCriteria,
        requiredToolIds,
        status: patch.status ?? current.status,
        at: yield* now
      })
      yield* drafts.bump(agent)
      const changed = Object.entries(patch).filter(([, value]) => value !== undefined).map(([name]) => name)
      yield* audit.item(principal, origin, agent, "ai-agent.item.updated", "tasks", id, changed)
      return task
    }, transactional)

    const remove = Effect.fn("AiAgentTasks.delete")(function*(
      principal: Principal,
      slug: string,
      id: AiAgentTaskId,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      const current: AiAgentTask = (yield* repo.find(agent.id, id)) ?? (yield* notFound(id))
      yield* repo.delete(agent.id, id, current.position)
      yield* drafts.bump(agent)
      yield* audit.item(principal, origin, agent, "ai-agent.item.deleted", "tasks", id, [])
    }, transactional)

    return { list, get, create, update, delete: remove } as const
  }),
  dependencies: [AgentDraftLock.Default, AgentItemAudit.Default, AiAgentTaskRepo.Default, AiAgentToolRepo.Default]
}) {}
