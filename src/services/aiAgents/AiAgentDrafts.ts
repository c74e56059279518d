/**
 * Wizard drafts: work on an AI agent before it exists, per workspace. An
 * update with `If-Match` applies only to that revision (a stale one is a
 * 409); without it, it applies to whatever the draft is at, under the row's
 * lock, so two writers take turns.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { v4 as uuidv4 } from "uuid"
import { type AiAgentDraft, AiAgentDraftNotFound, AiAgentDraftPatch } from "../../domain/aiAgents/AiAgentDraft.js"
import { type AiAgentDraftId } from "../../domain/aiAgents/Ids.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { type ListParams, type Page, pageOf } from "../../domain/Pagination.js"
import { type Revision, RevisionConflict } from "../../domain/Revision.js"
import { AiAgentDraftRepo, type DraftWrite } from "../../persistence/aiAgents/AiAgentDraftRepo.js"
import { transaction } from "../../persistence/Transaction.js"

type DraftFields = Omit<typeof AiAgentDraftPatch.Type, never>

const encodeFields = Schema.encodeSync(AiAgentDraftPatch)

/** The stored form of a draft's fields, the given ones over the current ones. */
const writeOf = (
  current: DraftWrite & { readonly [K in keyof DraftFields]?: unknown },
  fields: DraftFields
): DraftWrite => {
  const encoded = encodeFields(fields) as Record<string, unknown>
  return {
    step: (encoded.step ?? current.step) as string,
    name: (encoded.name ?? current.name) as string,
    description: (encoded.description ?? current.description) as string,
    proposedSlug: ("proposedSlug" in encoded ? encoded.proposedSlug : current.proposedSlug) as string | null,
    instructions: (encoded.instructions ?? current.instructions) as string,
    tasks: encoded.tasks ?? current.tasks,
    tools: encoded.tools ?? current.tools,
    modelSettings: "modelSettings" in encoded ? encoded.modelSettings : current.modelSettings,
    answers: encoded.answers ?? current.answers
  }
}

const empty: DraftWrite = {
  step: "describe",
  name: "",
  description: "",
  proposedSlug: null,
  instructions: "",
  tasks: [],
  tools: [],
  modelSettings: null,
  answers: {}
}

/** The stored form of a draft as read. */
const storedOf = (draft: AiAgentDraft): DraftWrite =>
  writeOf(empty, {
    step: draft.step,
    name: draft.name,
    description: draft.description,
    proposedSlug: draft.proposedSlug,
    instructions: draft.instructions,
    tasks: draft.tasks,
    tools: draft.tools,
    modelSettings: draft.modelSettings,
    answers: draft.answers
  })

export const draftNotFound = (id: string) =>
  new AiAgentDraftNotFound({ draftId: id, message: `No wizard draft ${id} in this workspace` })

export class AiAgentDrafts extends Effect.Service<AiAgentDrafts>()("parley/services/aiAgents/AiAgentDrafts", {
  dependencies: [AiAgentDraftRepo.Default],
  effect: Effect.gen(function*() {
    const repo = yield* AiAgentDraftRepo
    const sql = yield* SqlClient.SqlClient
    const inTransaction = transaction(sql)

    const list = Effect.fn("AiAgentDrafts.list")(function*(principal: Principal, params: ListParams) {
      const { limit, offset } = pageOf(params)
      const { items, total } = yield* repo.page(principal.workspaceId, limit, offset)
      return { items, total, limit, offset } satisfies Page<AiAgentDraft>
    })

    const create = Effect.fn("AiAgentDrafts.create")(function*(principal: Principal, fields: DraftFields) {
      return yield* repo.insert(
        principal.workspaceId,
        uuidv4() as AiAgentDraftId,
        actorOf(principal),
        writeOf(empty, fields),
        new Date()
      )
    })

    const get = Effect.fn("AiAgentDrafts.get")(function*(principal: Principal, id: AiAgentDraftId) {
      const draft = yield* repo.find(principal.workspaceId, id)
      return draft ?? (yield* draftNotFound(id))
    })

    const update = Effect.fn("AiAgentDrafts.update")(
      function*(principal: Principal, id: AiAgentDraftId, fields: DraftFields, ifMatch: Revision | undefined) {
        const current = yield* repo.lock(principal.workspaceId, id)
        if (current === undefined) return yield* draftNotFound(id)
        if (ifMatch !== undefined && ifMatch !== current.revision) {
          return yield* new RevisionConflict({
            expected: ifMatch,
            actual: current.revision,
            message:
              `The draft is at revision ${current.revision}, not ${ifMatch}: read it again and reapply the change`
          })
        }
        const updated = yield* repo.update(
          principal.workspaceId,
          id,
          current.revision,
          writeOf(storedOf(current), fields),
          new Date()
        )
        return updated ?? (yield* Effect.die("the locked draft changed under its lock"))
      },
      inTransaction
    )

    const remove = Effect.fn("AiAgentDrafts.remove")(function*(principal: Principal, id: AiAgentDraftId) {
      if (!(yield* repo.remove(principal.workspaceId, id))) return yield* draftNotFound(id)
    })

    return { list, create, get, update, remove } as const
  })
}) {}
