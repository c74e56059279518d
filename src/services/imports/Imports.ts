/**
 * Imports into Assistants: convert the source (pure, in `domain/imports`),
 * then write it through the same services as the editor — a new Assistant or
 * an existing one's draft flow (`Flows.replace`: its structure checks, its
 * revision check, its audit) and intents (`Intents`: merged by name, or
 * replacing them all). The import, failed or not, is recorded with its report.
 */
import { SqlClient } from "@effect/sql"
import { DateTime, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import type { Intent } from "../../domain/assistants/Intent.js"
import { distinctUtterances } from "../../domain/assistants/Utterances.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Origin } from "../../domain/identity/Origin.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { Import, type ImportFormat, ImportId, ImportNotFound, ImportUnreadable } from "../../domain/imports/Import.js"
import type { Conversion, ImportedIntent, Mapped } from "../../domain/imports/ImportDraft.js"
import type { ImportTarget } from "../../domain/imports/ImportRequest.js"
import { type Page, pageOf } from "../../domain/Pagination.js"
import type { ListParams } from "../../domain/Pagination.js"
import { type ImportFilter, ImportRepo } from "../../persistence/imports/ImportRepo.js"
import { transaction } from "../../persistence/Transaction.js"
import { Assistants, currentDate } from "../assistants/Assistants.js"
import { Flows } from "../assistants/Flows.js"
import { Intents } from "../assistants/Intents.js"

const mergedSlots = (current: Intent["slots"], imported: Intent["slots"]) => {
  const names = new Set(current.map((slot) => slot.name))
  return [...current, ...imported.filter((slot) => !names.has(slot.name))].slice(0, 50)
}

export class Imports extends Effect.Service<Imports>()("parley/services/Imports", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const transactional = transaction(sql)
    const repo = yield* ImportRepo
    const assistants = yield* Assistants
    const flows = yield* Flows
    const intents = yield* Intents

    /** Only a missing Assistant and a stale revision are the client's to hear; the rest cannot happen after the checks. */
    const die = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.catchAll(
        effect,
        (error): Effect.Effect<never, Extract<E, { _tag: "AssistantNotFound" | "RevisionConflict" }>> =>
          error._tag === "AssistantNotFound" || error._tag === "RevisionConflict"
            ? Effect.fail(error as Extract<E, { _tag: "AssistantNotFound" | "RevisionConflict" }>)
            : Effect.die(error)
      )

    /** Write the intents: merged by name into the Assistant's, or replacing them. */
    const writeIntents = (
      principal: Principal,
      agentId: AssistantId,
      existing: ReadonlyArray<Intent>,
      imported: ReadonlyArray<ImportedIntent>,
      mode: "merge" | "replace",
      origin: Origin
    ) =>
      Effect.gen(function*() {
        const byName = new Map(existing.map((intent) => [intent.name, intent]))
        const importedNames = new Set(imported.map((intent) => intent.name))
        if (mode === "replace") {
          for (const intent of existing) {
            if (!importedNames.has(intent.name)) yield* intents.remove(principal, agentId, intent.id, origin)
          }
        }
        for (const intent of imported) {
          const current = byName.get(intent.name)
          if (current === undefined) {
            yield* intents.create(principal, agentId, intent, origin)
          } else if (mode === "replace") {
            yield* intents.update(principal, agentId, current.id, {
              description: intent.description,
              utterances: intent.utterances,
              slots: intent.slots
            }, origin)
          } else {
            yield* intents.update(principal, agentId, current.id, {
              ...(current.description === "" ? { description: intent.description } : {}),
              utterances: distinctUtterances([...current.utterances, ...intent.utterances]).slice(0, 10_000),
              slots: mergedSlots(current.slots, intent.slots)
            }, origin)
          }
        }
      })

    /** Write a usable conversion to its target, in one transaction; the Assistant and its new revision. */
    const write = (principal: Principal, target: ImportTarget, mapped: Mapped, origin: Origin) =>
      Effect.gen(function*() {
        const graph = { nodes: mapped.flow.nodes, edges: mapped.flow.edges, subflows: mapped.flow.subflows }
        if (target.kind === "new") {
          const { kind: _, ...settings } = target
          const assistant = yield* assistants.create(principal, settings, origin)
          yield* flows.replace(principal, assistant.id, graph, undefined, origin)
          yield* writeIntents(principal, assistant.id, [], mapped.intents, "replace", origin)
          return assistant.id
        }
        const draft = yield* assistants.draftOf(principal.workspaceId, target.agentId)
        yield* flows.replace(principal, target.agentId, { ...graph, revision: target.revision }, undefined, origin)
        yield* writeIntents(principal, target.agentId, draft.intents, mapped.intents, target.intents, origin)
        return target.agentId
      }).pipe(
        Effect.flatMap((agentId) =>
          Effect.map(
            assistants.get(principal.workspaceId, agentId),
            (assistant) => ({ agentId, revision: assistant.revision })
          )
        ),
        die,
        transactional
      )

    /** Run an import: convert, write, record. */
    const run = Effect.fn("Imports.run")(
      function*(
        principal: Principal,
        format: ImportFormat,
        target: ImportTarget,
        convert: () => Conversion,
        origin: Origin
      ) {
        if (target.kind === "replace") yield* assistants.get(principal.workspaceId, target.agentId)
        const conversion = yield* Effect.sync(convert)
        const id = ImportId.make(uuidv7())
        const base = {
          id,
          workspaceId: principal.workspaceId,
          format,
          target: target.kind,
          createdBy: actorOf(principal) as Import["createdBy"],
          createdAt: DateTime.unsafeFromDate(yield* currentDate)
        }
        if (conversion._tag === "Unreadable") {
          yield* repo.insert(Import.make({
            ...base,
            status: "failed",
            agentId: target.kind === "replace" ? target.agentId : null,
            revision: null,
            report: {
              mapped: { nodes: 0, edges: 0, subflows: 0, intents: 0, utterances: 0 },
              skipped: { elements: 0 },
              warnings: conversion.problems.slice(0, 1000),
              truncated: conversion.problems.length > 1000
            }
          }))
          return yield* new ImportUnreadable({
            importId: id,
            format,
            problems: conversion.problems.slice(0, 100),
            message: `Nothing usable could be read from the ${format} source: ${
              conversion.problems[0]?.message ?? "no content"
            }`
          })
        }
        const written = yield* write(principal, target, conversion, origin)
        const entry = Import.make({
          ...base,
          status: "succeeded",
          agentId: written.agentId,
          revision: written.revision,
          report: conversion.report
        })
        yield* repo.insert(entry)
        return entry
      }
    )

    /** One page of the workspace's imports, newest first. */
    const list = Effect.fn("Imports.list")(function*(workspaceId: WorkspaceId, params: ListParams & ImportFilter) {
      const { limit, offset } = pageOf(params)
      const filter = { agentId: params.agentId, format: params.format, status: params.status }
      const [items, total] = yield* Effect.all([
        repo.page(workspaceId, filter, limit, offset),
        repo.count(workspaceId, filter)
      ])
      return { items, total, limit, offset } satisfies Page<Import>
    })

    const get = Effect.fn("Imports.get")(function*(workspaceId: WorkspaceId, id: ImportId) {
      const found = yield* repo.findById(workspaceId, id)
      if (found._tag === "None") {
        return yield* new ImportNotFound({ importId: id, message: `No import ${id} in this workspace` })
      }
      return found.value
    })

    return { run, list, get } as const
  })
}) {}
