import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { Actor } from "../../domain/identity/Actor.js"
import { WorkspaceId } from "../../domain/identity/Ids.js"
import { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import { WorkspaceTool } from "../../domain/workspace/WorkspaceTool.js"

/** A `workspace_tools` row, decoded into the domain's tool. */
const ToolRow = Schema.Struct({
  id: WorkspaceToolId,
  workspaceId: WorkspaceId,
  name: Schema.String,
  description: Schema.String,
  definition: Schema.parseJson(HttpToolDefinition),
  createdBy: Schema.parseJson(Actor),
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})

const toTool = (row: typeof ToolRow.Type): WorkspaceTool =>
  WorkspaceTool.make({
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    ...row.definition,
    createdBy: row.createdBy,
    createdAt: Schema.decodeSync(Schema.DateTimeUtcFromDate)(row.createdAt),
    updatedAt: Schema.decodeSync(Schema.DateTimeUtcFromDate)(row.updatedAt)
  })

/** What a write stores of a tool. */
export interface ToolWrite {
  readonly name: string
  readonly description: string
  readonly definition: HttpToolDefinition
  readonly at: Date
}

const encodeDefinition = Schema.encodeSync(Schema.parseJson(HttpToolDefinition))

/* JSON columns are read as text: the client would rename snake_case keys inside them. */
const columns = `id, workspace_id, name, description, definition::text AS definition,
  created_by::text AS created_by, created_at, updated_at`

/** The workspace's shared HTTP tools. */
export class WorkspaceToolRepo extends Effect.Service<WorkspaceToolRepo>()("parley/persistence/WorkspaceToolRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const filter = (workspaceId: string, q: string | undefined) =>
      q === undefined
        ? sql`workspace_id = ${workspaceId}`
        : sql`workspace_id = ${workspaceId} AND strpos(lower(name), lower(${q})) > 0`
    const rows = Schema.decodeUnknown(Schema.Array(ToolRow))

    const byId = SqlSchema.findOne({
      Request: Schema.Struct({ workspaceId: Schema.String, id: Schema.String }),
      Result: ToolRow,
      execute: ({ id, workspaceId }) =>
        sql`SELECT ${select} FROM workspace_tools WHERE workspace_id = ${workspaceId} AND id = ${id}`
    })

    return {
      page: (workspaceId: WorkspaceId, q: string | undefined, limit: number, offset: number) =>
        Effect.all([
          sql`SELECT ${select} FROM workspace_tools WHERE ${filter(workspaceId, q)}
            ORDER BY name LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.flatMap(rows)),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM workspace_tools WHERE ${filter(workspaceId, q)}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items: items.map(toTool), total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.page")
        ),
      /** The tool, locked until the transaction ends when `forUpdate`. */
      find: (workspaceId: WorkspaceId, id: WorkspaceToolId) =>
        byId({ workspaceId, id }).pipe(
          Effect.map((row) => row.pipe((found) => found._tag === "Some" ? toTool(found.value) : undefined)),
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.find")
        ),
      /** The workspace's tools among these ids (a missing id is simply absent). */
      findMany: (workspaceId: WorkspaceId, ids: ReadonlyArray<WorkspaceToolId>) =>
        (ids.length === 0
          ? Effect.succeed<ReadonlyArray<typeof ToolRow.Type>>([])
          : sql`SELECT ${select} FROM workspace_tools WHERE workspace_id = ${workspaceId} AND ${sql.in("id", ids)}`
            .pipe(Effect.flatMap(rows))).pipe(
            Effect.map((found) => found.map(toTool)),
            Effect.orDie,
            Effect.withSpan("WorkspaceToolRepo.findMany")
          ),
      lock: (workspaceId: WorkspaceId, id: WorkspaceToolId) =>
        sql`SELECT ${select} FROM workspace_tools WHERE workspace_id = ${workspaceId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(rows),
          Effect.map((found) => found[0] === undefined ? undefined : toTool(found[0])),
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.lock")
        ),
      /** Insert a tool; undefined when the workspace has a tool of this name. */
      insert: (id: WorkspaceToolId, workspaceId: WorkspaceId, createdBy: Actor, write: ToolWrite) =>
        sql`INSERT INTO workspace_tools (id, workspace_id, name, description, definition, created_by, created_at, updated_at)
          VALUES (${id}, ${workspaceId}, ${write.name}, ${write.description}, ${
          encodeDefinition(write.definition)
        }::jsonb,
            ${JSON.stringify(createdBy)}::jsonb, ${write.at}, ${write.at})
          ON CONFLICT (workspace_id, name) DO NOTHING RETURNING ${select}`.pipe(
          Effect.flatMap(rows),
          Effect.map((found) => found[0] === undefined ? undefined : toTool(found[0])),
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.insert")
        ),
      /** Replace a tool's fields; undefined when another tool of the workspace has the new name. */
      update: (workspaceId: WorkspaceId, id: WorkspaceToolId, write: ToolWrite) =>
        sql`UPDATE workspace_tools SET name = ${write.name}, description = ${write.description},
            definition = ${encodeDefinition(write.definition)}::jsonb, updated_at = ${write.at}
          WHERE workspace_id = ${workspaceId} AND id = ${id}
            AND NOT EXISTS (SELECT 1 FROM workspace_tools other
              WHERE other.workspace_id = ${workspaceId} AND other.name = ${write.name} AND other.id <> ${id})
          RETURNING ${select}`.pipe(
          Effect.flatMap(rows),
          Effect.map((found) => found[0] === undefined ? undefined : toTool(found[0])),
          Effect.catchTag(
            "SqlError",
            (error) =>
              String(error.cause).includes("workspace_tools_workspace_id_name_key")
                ? Effect.succeed(undefined)
                : Effect.fail(error)
          ),
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.update")
        ),
      delete: (workspaceId: WorkspaceId, id: WorkspaceToolId) =>
        sql`DELETE FROM workspace_tools WHERE workspace_id = ${workspaceId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("WorkspaceToolRepo.delete")
        )
    }
  })
}) {}
