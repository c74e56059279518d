import { SqlClient, SqlSchema } from "@effect/sql"
import { DateTime, Effect, Option, Schema } from "effect"
import { AssistantId } from "../../domain/assistants/Assistant.js"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { Import, ImportFormat, ImportId, ImportReport, ImportStatus } from "../../domain/imports/Import.js"
import { Revision } from "../../domain/Revision.js"

/**
 * An `imports` row. The report and the actor are read as JSON text, so the
 * client's snake_case to camelCase renaming never touches their keys.
 */
const ImportRow = Schema.Struct({
  id: ImportId,
  workspaceId: WorkspaceId,
  agentId: Schema.NullOr(AssistantId),
  format: ImportFormat,
  status: ImportStatus,
  target: Schema.Literal("new", "replace"),
  revision: Schema.NullOr(Revision),
  report: Schema.parseJson(ImportReport),
  createdBy: Schema.parseJson(Actor),
  createdAt: Schema.DateFromSelf
})

const toImport = (row: typeof ImportRow.Type) =>
  Import.make({ ...row, createdAt: DateTime.unsafeFromDate(row.createdAt) })

/** The filters of a list. */
export interface ImportFilter {
  readonly agentId?: AssistantId | undefined
  readonly format?: ImportFormat | undefined
  readonly status?: ImportStatus | undefined
}

export class ImportRepo extends Effect.Service<ImportRepo>()("parley/persistence/ImportRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, workspace_id, agent_id, format, status, target, revision,
      report::text AS report, created_by::text AS created_by, created_at`

    const where = (workspaceId: WorkspaceId, filter: ImportFilter) =>
      sql.and([
        sql`workspace_id = ${workspaceId}`,
        ...(filter.agentId === undefined ? [] : [sql`agent_id = ${filter.agentId}`]),
        ...(filter.format === undefined ? [] : [sql`format = ${filter.format}`]),
        ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`])
      ])

    const byId = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: WorkspaceId, id: ImportId }),
      Result: ImportRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${columns} FROM imports WHERE workspace_id = ${workspaceId} AND id = ${id}`
    })

    return {
      insert: (entry: Import) =>
        sql`INSERT INTO imports ${
          sql.insert({
            id: entry.id,
            workspaceId: entry.workspaceId,
            agentId: entry.agentId,
            format: entry.format,
            status: entry.status,
            target: entry.target,
            revision: entry.revision,
            report: JSON.stringify(entry.report),
            createdBy: JSON.stringify(entry.createdBy),
            createdAt: DateTime.toDate(entry.createdAt)
          })
        }`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("ImportRepo.insert")),
      findById: (workspaceId: WorkspaceId, id: ImportId) =>
        byId({ workspaceId, id }).pipe(
          Effect.map(Option.map(toImport)),
          Effect.orDie,
          Effect.withSpan("ImportRepo.findById")
        ),
      /** One page, newest first. */
      page: (workspaceId: WorkspaceId, filter: ImportFilter, limit: number, offset: number) =>
        SqlSchema.findAll({
          Request: Schema.Void,
          Result: ImportRow,
          execute: () =>
            sql`SELECT ${columns} FROM imports WHERE ${where(workspaceId, filter)}
                ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
        })(undefined).pipe(Effect.map((rows) => rows.map(toImport)), Effect.orDie, Effect.withSpan("ImportRepo.page")),
      count: (workspaceId: WorkspaceId, filter: ImportFilter) =>
        sql<{ total: number }>`SELECT count(*)::int AS total FROM imports WHERE ${where(workspaceId, filter)}`.pipe(
          Effect.map(([row]) => row?.total ?? 0),
          Effect.orDie,
          Effect.withSpan("ImportRepo.count")
        )
    } as const
  })
}) {}
