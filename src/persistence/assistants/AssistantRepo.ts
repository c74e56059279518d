import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Assistant, AssistantId } from "../../domain/assistants/Assistant.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Revision } from "../../domain/Revision.js"

/** A new `assistants` row. */
export interface AssistantInsert {
  readonly id: AssistantId
  readonly workspaceId: WorkspaceId
  readonly name: string
  readonly description: string
  readonly language: string
  /** Null: automatic (see `NluThreshold`). */
  readonly nluThreshold: number | null
  readonly revision: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** The settings a PATCH may change; absent fields stay as they are (the caller leaves out what it does not change). */
export interface AssistantSettings {
  readonly name?: string
  readonly description?: string
  readonly language?: string
  readonly nluThreshold?: number | null
}

/** The outcome of moving a draft's revision on. */
export type RevisionBump =
  | { readonly _tag: "Bumped"; readonly revision: Revision }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Stale"; readonly actual: Revision }

const Key = Schema.Struct({ workspaceId: WorkspaceId, id: AssistantId })
const PageRequest = Schema.Struct({ workspaceId: WorkspaceId, limit: Schema.Number, offset: Schema.Number })

/** Scripted Assistants: their settings and the revision of their draft. */
export class AssistantRepo extends Effect.Service<AssistantRepo>()("parley/persistence/AssistantRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`id, workspace_id, name, description, language, nlu_threshold, revision, created_at, updated_at`

    const byId = SqlSchema.findOne({
      Request: Key,
      Result: Assistant,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${columns} FROM assistants WHERE workspace_id = ${workspaceId} AND id = ${id}`
    })
    const lockById = SqlSchema.findOne({
      Request: Key,
      Result: Assistant,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${columns} FROM assistants WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`
    })
    const page = SqlSchema.findAll({
      Request: PageRequest,
      Result: Assistant,
      execute: ({ limit, offset, workspaceId }) =>
        sql`SELECT ${columns} FROM assistants WHERE workspace_id = ${workspaceId}
            ORDER BY created_at, id LIMIT ${limit} OFFSET ${offset}`
    })
    const update = (workspaceId: WorkspaceId, id: AssistantId, settings: AssistantSettings, now: Date) =>
      SqlSchema.findOne({
        Request: Key,
        Result: Assistant,
        execute: (key) =>
          sql`UPDATE assistants SET ${sql.update({ ...settings, updatedAt: now })}
              WHERE workspace_id = ${key.workspaceId} AND id = ${key.id} RETURNING ${columns}`
      })({ workspaceId, id })
    const remove = SqlSchema.findOne({
      Request: Key,
      Result: Assistant,
      execute: ({ id, workspaceId }) =>
        sql`DELETE FROM assistants WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING ${columns}`
    })

    /**
     * One more write to the draft: the revision goes up by one, on the
     * condition that it still is `expected` when one is given. The row stays
     * locked until the transaction ends, so draft writes take turns and two
     * writers from the same revision cannot both succeed.
     */
    const bumpRevision = (workspaceId: WorkspaceId, id: AssistantId, expected: Revision | undefined, now: Date) =>
      Effect.gen(function*() {
        const bumped = yield* sql<{ revision: Revision }>`
          UPDATE assistants SET revision = revision + 1, updated_at = ${now}
          WHERE workspace_id = ${workspaceId} AND id = ${id}
            ${expected === undefined ? sql`` : sql`AND revision = ${expected}`}
          RETURNING revision`
        if (bumped.length === 1) return { _tag: "Bumped", revision: bumped[0]!.revision } satisfies RevisionBump
        if (expected === undefined) return { _tag: "NotFound" } satisfies RevisionBump
        const current = yield* sql<{ revision: Revision }>`
          SELECT revision FROM assistants WHERE workspace_id = ${workspaceId} AND id = ${id}`
        return current.length === 0
          ? { _tag: "NotFound" } satisfies RevisionBump
          : { _tag: "Stale", actual: current[0]!.revision } satisfies RevisionBump
      })

    return {
      findById: (workspaceId: WorkspaceId, id: AssistantId) =>
        byId({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.findById")),
      /** The Assistant, its row locked until the transaction ends. */
      lockById: (workspaceId: WorkspaceId, id: AssistantId) =>
        lockById({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.lockById")),
      /** One page of the workspace's Assistants, oldest first. */
      page: (workspaceId: WorkspaceId, limit: number, offset: number) =>
        page({ workspaceId, limit, offset }).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.page")),
      count: (workspaceId: WorkspaceId) =>
        sql<{ total: number }>`SELECT count(*)::int AS total FROM assistants WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.map(([row]) => row?.total ?? 0),
          Effect.orDie,
          Effect.withSpan("AssistantRepo.count")
        ),
      insert: (row: AssistantInsert) =>
        sql`INSERT INTO assistants ${sql.insert({ ...row })}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AssistantRepo.insert")
        ),
      /** Change settings; `None` when there is no such Assistant in the workspace. */
      update: (workspaceId: WorkspaceId, id: AssistantId, settings: AssistantSettings, now: Date) =>
        update(workspaceId, id, settings, now).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.update")),
      /** Delete an Assistant (its intents and flow go with it); the row as it was, or `None`. */
      remove: (workspaceId: WorkspaceId, id: AssistantId) =>
        remove({ workspaceId, id }).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.remove")),
      bumpRevision: (workspaceId: WorkspaceId, id: AssistantId, expected: Revision | undefined, now: Date) =>
        bumpRevision(workspaceId, id, expected, now).pipe(Effect.orDie, Effect.withSpan("AssistantRepo.bumpRevision"))
    } as const
  })
}) {}
