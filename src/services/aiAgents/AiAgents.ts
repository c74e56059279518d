/**
 * AI agents themselves: create (slug unique per workspace), list, read,
 * update the draft's settings (If-Match on the draft's revision, which every
 * write bumps) and delete (its collections, versions and conversations go
 * with it, and its public token stops at once: the row that held its hash is
 * gone). Each write records an audit event in the same transaction. Task
 * derivation asks the workspace's model, or outlines (`TaskDerivation`). A
 * create `fromDraft` takes the draft's fields where the request left the
 * defaults (`FromDraft.ts`), its tasks and tools (`AgentFromDraft`), and
 * deletes it, all in one transaction.
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import {
  type AiAgentCreate,
  type AiAgentListParams,
  type AiAgentPatch,
  AiAgentSlugTaken
} from "../../domain/aiAgents/AiAgent.js"
import type { DeriveTasksRequest } from "../../domain/aiAgents/DerivedTasks.js"
import { fieldsFromDraft } from "../../domain/aiAgents/FromDraft.js"
import type { AiAgentId } from "../../domain/aiAgents/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { pageOf } from "../../domain/Pagination.js"
import type { Revision } from "../../domain/Revision.js"
import { AgentDraftCollectionsRepo } from "../../persistence/aiAgents/AgentDraftCollectionsRepo.js"
import { AiAgentRepo } from "../../persistence/aiAgents/AiAgentRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AgentAudit } from "./AgentAudit.js"
import { AgentDraftLock, agentNotFound } from "./AgentDraftLock.js"
import { AgentFromDraft } from "./AgentFromDraft.js"
import { AiAgentDrafts } from "./AiAgentDrafts.js"
import { TaskDerivation } from "./TaskDerivation.js"

export class AiAgents extends Effect.Service<AiAgents>()("parley/services/aiAgents/AiAgents", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AiAgentRepo
    const drafts = yield* AgentDraftLock
    const collections = yield* AgentDraftCollectionsRepo
    const audit = yield* AgentAudit
    const wizard = yield* AiAgentDrafts
    const fromDraft = yield* AgentFromDraft
    const derivation = yield* TaskDerivation
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const list = Effect.fn("AiAgents.list")(function*(principal: Principal, params: typeof AiAgentListParams.Type) {
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* repo.page(
        { workspaceId: principal.workspaceId, status: params.status, q: params.q },
        limit,
        offset
      )
      return { items, total, limit, offset }
    })

    const get = Effect.fn("AiAgents.get")(function*(principal: Principal, slug: string) {
      return yield* drafts.find(principal, slug)
    })

    const create = Effect.fn("AiAgents.create")(function*(
      principal: Principal,
      input: typeof AiAgentCreate.Type,
      origin: Origin
    ) {
      const draft = input.fromDraft === undefined ? undefined : yield* wizard.get(principal, input.fromDraft)
      const fields = draft === undefined ? input : fieldsFromDraft(input, draft)
      const id = uuidv7() as AiAgentId
      const inserted = yield* repo.insert({
        id,
        workspaceId: principal.workspaceId,
        slug: fields.slug,
        name: fields.name,
        description: fields.description,
        instructions: fields.instructions,
        modelSettings: fields.modelSettings,
        conversation: fields.conversation,
        embed: fields.embed,
        at: yield* now
      })
      if (!inserted) {
        return yield* new AiAgentSlugTaken({
          slug: input.slug,
          message: `Another AI agent of this workspace has the slug ${input.slug}`
        })
      }
      yield* audit.record(principal, origin, id, "ai-agent.created")
      if (draft !== undefined) yield* fromDraft.apply(principal, input.slug, draft, origin)
      // Just inserted in this transaction: it is there.
      return yield* Effect.orDie(drafts.find(principal, input.slug))
    }, transactional)

    const update = Effect.fn("AiAgents.update")(function*(
      principal: Principal,
      slug: string,
      patch: typeof AiAgentPatch.Type,
      ifMatch: Revision | undefined,
      origin: Origin
    ) {
      const agent = yield* drafts.lock(principal, slug, ifMatch)
      yield* repo.update(agent.workspaceId, agent.id, patch, yield* now)
      yield* drafts.bump(agent)
      yield* audit.record(principal, origin, agent.id, "ai-agent.updated", { changedFields: Object.keys(patch) })
      return yield* drafts.find(principal, slug)
    }, transactional)

    const remove = Effect.fn("AiAgents.delete")(function*(principal: Principal, slug: string, origin: Origin) {
      const agent = yield* drafts.lock(principal, slug, undefined).pipe(
        // No If-Match is given, so the revision cannot be stale.
        Effect.catchTag("RevisionConflict", Effect.die)
      )
      if (!(yield* repo.remove(agent.workspaceId, agent.id))) return yield* agentNotFound(slug)
      // The event outlives the agent: the workspace's audit log keeps it.
      yield* audit.record(principal, origin, agent.id, "ai-agent.updated", { changedFields: ["deleted"] })
    }, transactional)

    /** Proposed tasks for a wizard (no agent yet). */
    const deriveForWizard = (principal: Principal, request: typeof DeriveTasksRequest.Type) =>
      deriveTasks(principal, undefined, request).pipe(Effect.catchTag("AiAgentNotFound", Effect.die))

    /** Proposed tasks; on the agent form, the agent's instructions add context and its task titles are skipped. */
    const deriveTasks = Effect.fn("AiAgents.deriveTasks")(function*(
      principal: Principal,
      slug: string | undefined,
      request: typeof DeriveTasksRequest.Type
    ) {
      const agent = slug === undefined ? undefined : yield* drafts.find(principal, slug)
      const existing = agent === undefined ? [] : yield* collections.tasks(agent.id)
      return yield* derivation.derive(principal.workspaceId, {
        description: request.description,
        context: request.context,
        maxTasks: request.maxTasks,
        instructions: agent?.instructions,
        existingTitles: existing.map((task) => task.title)
      })
    })

    return { list, get, create, update, delete: remove, deriveTasks, deriveForWizard } as const
  }),
  dependencies: [AgentDraftLock.Default, AgentDraftCollectionsRepo.Default, AgentAudit.Default, AiAgentRepo.Default]
}) {}
