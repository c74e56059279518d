/**
 * Scripted Assistants: their settings, their lifetime, and the revision their
 * draft (flow and intents) moves on with every write. Settings are not part of
 * the draft: changing them leaves the revision alone.
 */
import { SqlClient } from "@effect/sql"
import { Clock, DateTime, Effect, Option } from "effect"
import { v7 as uuidv7 } from "uuid"
import {
  Assistant,
  type AssistantCreate,
  AssistantId,
  AssistantNotFound,
  type AssistantPatch
} from "../../domain/assistants/Assistant.js"
import type { Flow } from "../../domain/assistants/Flow.js"
import type { Intent } from "../../domain/assistants/Intent.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { type ListParams, type Page, pageOf } from "../../domain/Pagination.js"
import { Revision, RevisionConflict } from "../../domain/Revision.js"
import { AssistantRepo, type AssistantSettings } from "../../persistence/assistants/AssistantRepo.js"
import { DraftRepo } from "../../persistence/assistants/DraftRepo.js"
import { FlowRepo } from "../../persistence/assistants/FlowRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AuditLog } from "../AuditLog.js"
import { workspaceEntry } from "../WorkspaceAudit.js"

/** The settings of a new Assistant, defaults applied. */
export type AssistantInput = typeof AssistantCreate.Type

/** A change of settings: the fields sent. */
export type AssistantChange = typeof AssistantPatch.Type

/** The Assistant is not in the workspace (or does not exist at all: the answer is the same). */
export const assistantNotFound = (agentId: AssistantId) =>
  new AssistantNotFound({ agentId, message: `No Assistant ${agentId} in this workspace` })

/** What a lookup found, or the error `onNone` makes. */
export const orFail = <E>(onNone: () => E) => <A, E2, R>(lookup: Effect.Effect<Option.Option<A>, E2, R>) =>
  Effect.flatMap(lookup, (found) => Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(onNone()))

/** The Assistant a lookup found, or `AssistantNotFound`. */
export const orNotFound = (agentId: AssistantId) => orFail(() => assistantNotFound(agentId))

/** The settings an audit record shows (never the graph or the utterances). */
const settingsOf = (assistant: Assistant) => ({
  name: assistant.name,
  description: assistant.description,
  language: assistant.language,
  nluThreshold: assistant.nluThreshold
})

/** The current time as a `Date`, from Effect's clock. */
export const currentDate = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

export class Assistants extends Effect.Service<Assistants>()("parley/services/Assistants", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* AssistantRepo
    const flows = yield* FlowRepo
    const drafts = yield* DraftRepo
    const log = yield* AuditLog

    const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => transactional(effect)

    /** One page of the workspace's Assistants, oldest first. */
    const list = Effect.fn("Assistants.list")(function*(workspaceId: WorkspaceId, params: ListParams) {
      const { limit, offset } = pageOf(params)
      const [items, total] = yield* Effect.all([repo.page(workspaceId, limit, offset), repo.count(workspaceId)])
      return { items, total, limit, offset } satisfies Page<Assistant>
    })

    /** A new Assistant with an empty draft flow, at revision 1. */
    const create = Effect.fn("Assistants.create")(
      function*(principal: Principal, input: AssistantInput, origin: Origin) {
        const at = yield* currentDate
        const assistant = Assistant.make({
          id: AssistantId.make(uuidv7()),
          workspaceId: principal.workspaceId,
          name: input.name,
          description: input.description,
          language: input.language,
          nluThreshold: input.nluThreshold,
          revision: Revision.make(1),
          createdAt: DateTime.unsafeFromDate(at),
          updatedAt: DateTime.unsafeFromDate(at)
        })
        yield* repo.insert({
          ...settingsOf(assistant),
          id: assistant.id,
          workspaceId: assistant.workspaceId,
          revision: 1,
          createdAt: at,
          updatedAt: at
        })
        yield* flows.insert(assistant.workspaceId, assistant.id, { nodes: [], edges: [], subflows: [] }, at)
        yield* log.append(workspaceEntry(principal, origin, {
          action: "assistant.created",
          resourceType: "assistant",
          resourceId: assistant.id,
          summary: { before: null, after: settingsOf(assistant) }
        }))
        return assistant
      },
      inTransaction
    )

    /** An Assistant of the workspace. */
    const get = Effect.fn("Assistants.get")(function*(workspaceId: WorkspaceId, agentId: AssistantId) {
      return yield* repo.findById(workspaceId, agentId).pipe(orNotFound(agentId))
    })

    /** Change an Assistant's settings; the draft's revision stays. A change to nothing writes nothing. */
    const update = Effect.fn("Assistants.update")(
      function*(principal: Principal, agentId: AssistantId, change: AssistantChange, origin: Origin) {
        const current = yield* repo.lockById(principal.workspaceId, agentId).pipe(orNotFound(agentId))
        const before = settingsOf(current)
        const changed = Object.fromEntries(
          Object.entries(change).filter(([key, value]) =>
            value !== undefined && before[key as keyof typeof before] !== value
          )
        ) as AssistantSettings
        if (Object.keys(changed).length === 0) return current
        const updated = yield* repo.update(principal.workspaceId, agentId, changed, yield* currentDate).pipe(
          orNotFound(agentId)
        )
        yield* log.append(workspaceEntry(principal, origin, {
          action: "assistant.updated",
          resourceType: "assistant",
          resourceId: agentId,
          summary: {
            before: Object.fromEntries(Object.keys(changed).map((key) => [key, before[key as keyof typeof before]])),
            after: { ...changed }
          }
        }))
        return updated
      },
      inTransaction
    )

    /** Delete an Assistant with its intents and flow. */
    const remove = Effect.fn("Assistants.remove")(
      function*(principal: Principal, agentId: AssistantId, origin: Origin) {
        const removed = yield* repo.remove(principal.workspaceId, agentId).pipe(orNotFound(agentId))
        yield* log.append(workspaceEntry(principal, origin, {
          action: "assistant.deleted",
          resourceType: "assistant",
          resourceId: agentId,
          summary: { before: { name: removed.name, revision: removed.revision }, after: null }
        }))
      },
      inTransaction
    )

    /**
     * Move the draft's revision on by one for a write to its flow or intents,
     * checking it is still `expected` when one is given. Run it first in the
     * write's transaction: it locks the Assistant, so draft writes take turns
     * and the write commits with its revision or not at all.
     */
    const advanceRevisionFrom = Effect.fn("Assistants.advanceRevisionFrom")(
      function*(workspaceId: WorkspaceId, agentId: AssistantId, expected: Revision | undefined, now: Date) {
        const bump = yield* repo.bumpRevision(workspaceId, agentId, expected, now)
        switch (bump._tag) {
          case "Bumped":
            return bump.revision
          case "NotFound":
            return yield* assistantNotFound(agentId)
          case "Stale":
            return yield* new RevisionConflict({
              expected: expected ?? bump.actual,
              actual: bump.actual,
              message: `The draft is at revision ${bump.actual}, not ${expected}: read it again and reapply the change`
            })
        }
      }
    )

    /** Move the draft's revision on by one, whatever it is (see `advanceRevisionFrom`). */
    const advanceRevision = (workspaceId: WorkspaceId, agentId: AssistantId, now: Date) =>
      advanceRevisionFrom(workspaceId, agentId, undefined, now).pipe(
        Effect.catchTag("RevisionConflict", (conflict) => Effect.die(conflict))
      )

    /**
     * The draft as the runtime runs it: the Assistant, its flow and its
     * intents, read together so all three are of one revision.
     */
    const draftOf = Effect.fn("Assistants.draftOf")(function*(workspaceId: WorkspaceId, agentId: AssistantId) {
      return yield* drafts.find(workspaceId, agentId).pipe(orNotFound(agentId))
    })

    return {
      list,
      create,
      get,
      update,
      remove,
      advanceRevision,
      advanceRevisionFrom,
      draftOf: (
        workspaceId: WorkspaceId,
        agentId: AssistantId
      ): Effect.Effect<
        { assistant: Assistant; flow: Flow; intents: ReadonlyArray<Intent> },
        AssistantNotFound
      > => draftOf(workspaceId, agentId)
    } as const
  })
}) {}
