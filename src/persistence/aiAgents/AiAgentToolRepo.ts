/**
 * An agent's tools (`ai_agent_tools`). Writes run in a transaction that has
 * locked the agent's row first, so a name check here and the write after it
 * cannot race another writer of the same agent. The config is read as text:
 * the client would rename snake_case keys inside it (input property names,
 * header names).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AiAgentId, AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import { AiAgentTool } from "../../domain/aiAgents/Tool.js"
import { AiAgentToolConfig, type AiAgentToolKind } from "../../domain/aiAgents/ToolConfig.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

const columns = `id, workspace_id, agent_id, name, description, config::text AS config, enabled, created_at, updated_at`

const decodeTools = Schema.decodeUnknown(Schema.Array(AiAgentTool))
const encodeConfig = Schema.encodeSync(Schema.parseJson(AiAgentToolConfig))

/** Rows with their config as text, decoded into the domain's tools. */
const toolsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeTools(rows.map((row) => ({ ...row, config: JSON.parse(String(row.config)) })))

/** What a write stores of a tool. */
export interface ToolWrite {
  readonly name: string
  readonly description: string | null
  readonly config: AiAgentToolConfig
  readonly enabled: boolean
  readonly at: Date
}

/** The filters of the tool list. */
export interface ToolFilter {
  readonly kind?: AiAgentToolKind | undefined
  readonly enabled?: boolean | undefined
}

export class AiAgentToolRepo extends Effect.Service<AiAgentToolRepo>()("parley/persistence/AiAgentToolRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const many = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.flatMap(query, toolsOf)
    const one = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.map(many(query), (tools) => tools[0])
    const where = (agentId: AiAgentId, filter: ToolFilter) =>
      sql.and([
        sql`agent_id = ${agentId}`,
        ...(filter.kind === undefined ? [] : [sql`config->>'kind' = ${filter.kind}`]),
        ...(filter.enabled === undefined ? [] : [sql`enabled = ${filter.enabled}`])
      ])

    return {
      /** A page of the agent's tools by name, and how many match. */
      page: (agentId: AiAgentId, filter: ToolFilter, limit: number, offset: number) =>
        Effect.all([
          many(sql`SELECT ${select} FROM ai_agent_tools WHERE ${where(agentId, filter)} ORDER BY name, id
            LIMIT ${limit} OFFSET ${offset}`),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_tools WHERE ${where(agentId, filter)}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.page")
        ),
      find: (agentId: AiAgentId, id: AiAgentToolId) =>
        one(sql`SELECT ${select} FROM ai_agent_tools WHERE agent_id = ${agentId} AND id = ${id}`).pipe(
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.find")
        ),
      /** Which of these ids are not tools of the agent. */
      unknownIds: (agentId: AiAgentId, ids: ReadonlyArray<AiAgentToolId>) =>
        ids.length === 0
          ? Effect.succeed([] as ReadonlyArray<AiAgentToolId>)
          : sql<{ id: AiAgentToolId }>`SELECT id FROM ai_agent_tools WHERE agent_id = ${agentId}
              AND id IN ${sql.in(ids)}`.pipe(
            Effect.map((rows) => {
              const known = new Set<string>(rows.map((row) => row.id))
              return ids.filter((id) => !known.has(id))
            }),
            Effect.orDie,
            Effect.withSpan("AiAgentToolRepo.unknownIds")
          ),
      /** Whether another tool of the agent (not `except`) has this name. */
      nameTaken: (agentId: AiAgentId, name: string, except?: AiAgentToolId) =>
        sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM ai_agent_tools WHERE agent_id = ${agentId}
            AND name = ${name} ${except === undefined ? sql`` : sql`AND id <> ${except}`}) AS taken`.pipe(
          Effect.map(([row]) => row?.taken === true),
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.nameTaken")
        ),
      insert: (id: AiAgentToolId, workspaceId: WorkspaceId, agentId: AiAgentId, write: ToolWrite) =>
        one(sql`INSERT INTO ai_agent_tools (id, workspace_id, agent_id, name, description, config, enabled,
            created_at, updated_at)
          VALUES (${id}, ${workspaceId}, ${agentId}, ${write.name}, ${write.description},
            ${encodeConfig(write.config)}::jsonb, ${write.enabled}, ${write.at}, ${write.at})
          RETURNING ${select}`).pipe(
          Effect.flatMap((tool) =>
            tool === undefined ? Effect.die("the insert returned no row") : Effect.succeed(tool)
          ),
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.insert")
        ),
      update: (agentId: AiAgentId, id: AiAgentToolId, write: ToolWrite) =>
        one(sql`UPDATE ai_agent_tools SET name = ${write.name}, description = ${write.description},
            config = ${encodeConfig(write.config)}::jsonb, enabled = ${write.enabled}, updated_at = ${write.at}
          WHERE agent_id = ${agentId} AND id = ${id} RETURNING ${select}`).pipe(
          Effect.flatMap((tool) => tool === undefined ? Effect.die("the update found no row") : Effect.succeed(tool)),
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.update")
        ),
      delete: (agentId: AiAgentId, id: AiAgentToolId) =>
        sql`DELETE FROM ai_agent_tools WHERE agent_id = ${agentId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("AiAgentToolRepo.delete")
        )
    } as const
  })
}) {}
