/**
 * The intents of an Assistant. They are part of its draft: every write moves
 * the draft's revision on, in the same transaction. Names are unique per
 * Assistant; utterances arrive trimmed and are kept once each.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import {
  Intent,
  type IntentCreate,
  IntentId,
  IntentNameTaken,
  IntentNotFound,
  type IntentPatch
} from "../../domain/assistants/Intent.js"
import { distinctUtterances } from "../../domain/assistants/Utterances.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import type { Principal } from "../../domain/identity/Principal.js"
import { type ListParams, type Page, pageOf } from "../../domain/Pagination.js"
import { AssistantRepo } from "../../persistence/assistants/AssistantRepo.js"
import { type IntentChanges, IntentRepo } from "../../persistence/assistants/IntentRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { AuditLog } from "../AuditLog.js"
import { draftOwner, NluModels } from "../nlu/NluModels.js"
import { workspaceEntry } from "../WorkspaceAudit.js"
import { Assistants, currentDate, orFail, orNotFound } from "./Assistants.js"

const nameTaken = (name: string) =>
  new IntentNameTaken({ name, message: `The Assistant already has an intent named ${name}` })

const intentNotFound = (intentId: IntentId) =>
  new IntentNotFound({ intentId, message: `The Assistant has no intent ${intentId}` })

/** What an audit record shows of an intent: its name and how much it holds, never the utterances. */
const summaryOf = (intent: Pick<Intent, "name" | "utterances" | "slots">) => ({
  name: intent.name,
  utterances: intent.utterances.length,
  slots: intent.slots.length
})

export class Intents extends Effect.Service<Intents>()("parley/services/Intents", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* IntentRepo
    const assistantRows = yield* AssistantRepo
    const assistants = yield* Assistants
    const log = yield* AuditLog
    const models = yield* NluModels

    /**
     * After a committed write, starts training the draft's new intents in the
     * background (the request does not wait; until the model is ready the
     * previous one serves the draft's conversations).
     */
    const retrain = (workspaceId: WorkspaceId, agentId: AssistantId) =>
      Effect.forkDaemon(
        assistants.draftOf(workspaceId, agentId).pipe(
          Effect.flatMap(({ intents }) => models.prepare(draftOwner(agentId), intents)),
          Effect.ignoreLogged
        )
      )

    const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => transactional(effect)

    /** One page of an Assistant's intents, oldest first. */
    const list = Effect.fn("Intents.list")(
      function*(workspaceId: WorkspaceId, agentId: AssistantId, params: ListParams) {
        yield* assistantRows.findById(workspaceId, agentId).pipe(orNotFound(agentId))
        const { limit, offset } = pageOf(params)
        const [items, total] = yield* Effect.all([
          repo.page(workspaceId, agentId, limit, offset),
          repo.count(workspaceId, agentId)
        ])
        return { items, total, limit, offset } satisfies Page<Intent>
      }
    )

    /** Add an intent to an Assistant's draft. */
    const create = Effect.fn("Intents.create")(
      function*(principal: Principal, agentId: AssistantId, input: typeof IntentCreate.Type, origin: Origin) {
        const at = yield* currentDate
        yield* assistants.advanceRevision(principal.workspaceId, agentId, at)
        const id = IntentId.make(uuidv7())
        const utterances = distinctUtterances(input.utterances)
        const inserted = yield* repo.insert({
          id,
          agentId,
          workspaceId: principal.workspaceId,
          name: input.name,
          description: input.description,
          utterances,
          slots: input.slots,
          createdAt: at,
          updatedAt: at
        })
        if (!inserted) return yield* nameTaken(input.name)
        yield* log.append(workspaceEntry(principal, origin, {
          action: "intent.created",
          resourceType: "intent",
          resourceId: id,
          summary: { before: null, after: { agentId, ...summaryOf({ ...input, utterances }) } }
        }))
        return Intent.make({
          id,
          agentId,
          name: input.name,
          description: input.description,
          utterances,
          slots: input.slots,
          createdAt: DateTime.unsafeFromDate(at),
          updatedAt: DateTime.unsafeFromDate(at)
        })
      },
      inTransaction
    )

    /** Change an intent of an Assistant's draft. */
    const update = Effect.fn("Intents.update")(
      function*(
        principal: Principal,
        agentId: AssistantId,
        intentId: IntentId,
        patch: typeof IntentPatch.Type,
        origin: Origin
      ) {
        const at = yield* currentDate
        // First: it locks the Assistant, so the name check below cannot race another write.
        yield* assistants.advanceRevision(principal.workspaceId, agentId, at)
        const current = yield* repo.findById(principal.workspaceId, agentId, intentId).pipe(
          orFail(() => intentNotFound(intentId))
        )
        if (
          patch.name !== undefined && patch.name !== current.name &&
          (yield* repo.nameTaken(principal.workspaceId, agentId, patch.name, intentId))
        ) {
          return yield* nameTaken(patch.name)
        }
        const changes: IntentChanges = patch.utterances === undefined
          ? patch
          : { ...patch, utterances: distinctUtterances(patch.utterances) }
        const updated = yield* repo.update(principal.workspaceId, agentId, intentId, changes, at).pipe(
          orFail(() => intentNotFound(intentId))
        )
        yield* log.append(workspaceEntry(principal, origin, {
          action: "intent.updated",
          resourceType: "intent",
          resourceId: intentId,
          summary: { before: { agentId, ...summaryOf(current) }, after: { agentId, ...summaryOf(updated) } }
        }))
        return updated
      },
      inTransaction
    )

    /** Delete an intent of an Assistant's draft. */
    const remove = Effect.fn("Intents.remove")(
      function*(principal: Principal, agentId: AssistantId, intentId: IntentId, origin: Origin) {
        yield* assistants.advanceRevision(principal.workspaceId, agentId, yield* currentDate)
        const removed = yield* repo.remove(principal.workspaceId, agentId, intentId).pipe(
          orFail(() => intentNotFound(intentId))
        )
        yield* log.append(workspaceEntry(principal, origin, {
          action: "intent.deleted",
          resourceType: "intent",
          resourceId: intentId,
          summary: { before: { agentId, ...summaryOf(removed) }, after: null }
        }))
      },
      inTransaction
    )

    return {
      list,
      create: (...args: Parameters<typeof create>) =>
        Effect.tap(create(...args), () => retrain(args[0].workspaceId, args[1])),
      update: (...args: Parameters<typeof update>) =>
        Effect.tap(update(...args), () => retrain(args[0].workspaceId, args[1])),
      remove: (...args: Parameters<typeof remove>) =>
        Effect.tap(remove(...args), () => retrain(args[0].workspaceId, args[1]))
    } as const
  }),
  dependencies: [NluModels.Default]
}) {}
