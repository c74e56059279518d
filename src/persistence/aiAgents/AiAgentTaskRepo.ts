/**
 * An agent's tasks (`ai_agent_tasks`). Positions are a dense 0..n-1 sequence
 * per agent: every write runs in a transaction that has locked the agent's
 * row first (`AiAgentRepo.lockBySlug`), so writers take turns and the shifts
 * here never interleave. JSON columns are read as text: the client would
 * rename snake_case keys inside them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AiAgentId, AiAgentTaskId, AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import { AiAgentTask, type AiAgentTaskStatus } from "../../domain/aiAgents/Task.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

const columns = `id, workspace_id, agent_id, title, goal, success_criteria::text AS success_criteria, position,
  required_tool_ids::text AS required_tool_ids, status, created_at, updated_at`

const decodeTasks = Schema.decodeUnknown(Schema.Array(AiAgentTask))

/** Rows with their JSON columns as text, decoded into the domain's tasks. */
const tasksOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeTasks(rows.map((row) => ({
    ...row,
    successCriteria: JSON.parse(String(row.successCriteria)),
    requiredToolIds: JSON.parse(String(row.requiredToolIds))
  })))

/** What a write stores of a task (its position is set apart). */
export interface TaskWrite {
  readonly title: string
  readonly goal: string
  readonly successCriteria: AiAgentTask["successCriteria"]
  readonly requiredToolIds: ReadonlyArray<AiAgentToolId>
  readonly status: AiAgentTaskStatus
  readonly at: Date
}

export class AiAgentTaskRepo extends Effect.Service<AiAgentTaskRepo>()("parley/persistence/AiAgentTaskRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const many = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.flatMap(query, tasksOf)
    const one = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.map(many(query), (tasks) => tasks[0])

    return {
      /** A page of the agent's tasks in position order, optionally of one status, and how many there are. */
      page: (agentId: AiAgentId, status: AiAgentTaskStatus | undefined, limit: number, offset: number) => {
        const where = status === undefined
          ? sql`agent_id = ${agentId}`
          : sql`agent_id = ${agentId} AND status = ${status}`
        return Effect.all([
          many(sql`SELECT ${select} FROM ai_agent_tasks WHERE ${where} ORDER BY position, id
            LIMIT ${limit} OFFSET ${offset}`),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_tasks WHERE ${where}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.page")
        )
      },
      find: (agentId: AiAgentId, id: AiAgentTaskId) =>
        one(sql`SELECT ${select} FROM ai_agent_tasks WHERE agent_id = ${agentId} AND id = ${id}`).pipe(
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.find")
        ),
      count: (agentId: AiAgentId) =>
        sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_tasks WHERE agent_id = ${agentId}`.pipe(
          Effect.map(([row]) => row?.total ?? 0),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.count")
        ),
      /** Whether another task of the agent (not `except`) has this title. */
      titleTaken: (agentId: AiAgentId, title: string, except?: AiAgentTaskId) =>
        sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM ai_agent_tasks WHERE agent_id = ${agentId}
            AND title = ${title} ${except === undefined ? sql`` : sql`AND id <> ${except}`}) AS taken`.pipe(
          Effect.map(([row]) => row?.taken === true),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.titleTaken")
        ),
      /** Insert a task at `position`, moving the tasks from there on down one. */
      insert: (
        id: AiAgentTaskId,
        workspaceId: WorkspaceId,
        agentId: AiAgentId,
        position: number,
        write: TaskWrite
      ) =>
        Effect.zipRight(
          sql`UPDATE ai_agent_tasks SET position = position + 1 WHERE agent_id = ${agentId} AND position >= ${position}`,
          one(sql`INSERT INTO ai_agent_tasks (id, workspace_id, agent_id, title, goal, success_criteria, position,
              required_tool_ids, status, created_at, updated_at)
            VALUES (${id}, ${workspaceId}, ${agentId}, ${write.title}, ${write.goal},
              ${JSON.stringify(write.successCriteria)}::jsonb, ${position}, ${
            JSON.stringify(write.requiredToolIds)
          }::jsonb,
              ${write.status}, ${write.at}, ${write.at})
            RETURNING ${select}`)
        ).pipe(
          Effect.flatMap((task) =>
            task === undefined ? Effect.die("the insert returned no row") : Effect.succeed(task)
          ),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.insert")
        ),
      /** Replace a task's fields and move it from `from` to `to`, shifting the tasks between by one. */
      update: (agentId: AiAgentId, id: AiAgentTaskId, from: number, to: number, write: TaskWrite) =>
        Effect.zipRight(
          from === to ? Effect.void : from < to
            ? sql`UPDATE ai_agent_tasks SET position = position - 1
                WHERE agent_id = ${agentId} AND position > ${from} AND position <= ${to}`
            : sql`UPDATE ai_agent_tasks SET position = position + 1
                WHERE agent_id = ${agentId} AND position >= ${to} AND position < ${from}`,
          one(sql`UPDATE ai_agent_tasks SET title = ${write.title}, goal = ${write.goal},
              success_criteria = ${JSON.stringify(write.successCriteria)}::jsonb, position = ${to},
              required_tool_ids = ${JSON.stringify(write.requiredToolIds)}::jsonb, status = ${write.status},
              updated_at = ${write.at}
            WHERE agent_id = ${agentId} AND id = ${id} RETURNING ${select}`)
        ).pipe(
          Effect.flatMap((task) => task === undefined ? Effect.die("the update found no row") : Effect.succeed(task)),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.update")
        ),
      /** Delete a task at `position`; the tasks after it move up one. */
      delete: (agentId: AiAgentId, id: AiAgentTaskId, position: number) =>
        Effect.zipRight(
          sql`DELETE FROM ai_agent_tasks WHERE agent_id = ${agentId} AND id = ${id}`,
          sql`UPDATE ai_agent_tasks SET position = position - 1 WHERE agent_id = ${agentId} AND position > ${position}`
        ).pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("AiAgentTaskRepo.delete")),
      /** Remove a tool from every task of the agent that requires it; the ids of the tasks changed. */
      dropRequiredTool: (agentId: AiAgentId, toolId: AiAgentToolId, at: Date) =>
        sql<{ id: AiAgentTaskId }>`UPDATE ai_agent_tasks
            SET required_tool_ids = required_tool_ids - ${toolId}::text, updated_at = ${at}
            WHERE agent_id = ${agentId} AND required_tool_ids ? ${toolId}::text RETURNING id`.pipe(
          Effect.map((rows) => rows.map((row) => row.id)),
          Effect.orDie,
          Effect.withSpan("AiAgentTaskRepo.dropRequiredTool")
        )
    } as const
  })
}) {}
