/**
 * An agent's eval cases (`ai_agent_evals`). They are not part of the draft:
 * writes take no lock on the agent and leave its revision alone; the name is
 * unique per agent (the constraint settles a race between two writers). JSON
 * columns are read as text: the client would rename snake_case keys inside them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgentEval } from "../../domain/aiAgents/Eval.js"
import type { AiAgentEvalId, AiAgentId } from "../../domain/aiAgents/Ids.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

const columns = `id, workspace_id, agent_id, name, description, conversation::text AS conversation,
  expectations::text AS expectations, variables::text AS variables, end_user_id, tool_mocks::text AS tool_mocks,
  weight, tags::text AS tags, enabled, created_at, updated_at`

const JSON_COLUMNS = ["conversation", "expectations", "variables", "toolMocks", "tags"] as const

const decodeEvals = Schema.decodeUnknown(Schema.Array(AiAgentEval))

/** Rows with their JSON columns as text, decoded into the domain's cases. */
const evalsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeEvals(rows.map((row) => ({
    ...row,
    ...Object.fromEntries(JSON_COLUMNS.map((column) => [column, JSON.parse(String(row[column]))]))
  })))

/** What a write stores of a case. */
export type EvalWrite =
  & Omit<
    AiAgentEval,
    "id" | "workspaceId" | "agentId" | "createdAt" | "updatedAt"
  >
  & { readonly at: Date }

/** The filters of the case list. */
export interface EvalFilters {
  readonly tag?: string | undefined
  readonly enabled?: boolean | undefined
}

export class AiAgentEvalRepo extends Effect.Service<AiAgentEvalRepo>()("parley/persistence/AiAgentEvalRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.literal(columns)
    const many = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.flatMap(query, evalsOf)
    const one = <E, R>(query: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.map(many(query), (cases) => cases[0])
    const json = (value: unknown) => JSON.stringify(value)

    return {
      /** A page of the agent's cases by name, optionally with a tag or of one state, and how many there are. */
      page: (agentId: AiAgentId, filters: EvalFilters, limit: number, offset: number) => {
        const where = sql.and([
          sql`agent_id = ${agentId}`,
          ...(filters.tag === undefined ? [] : [sql`tags ? ${filters.tag}`]),
          ...(filters.enabled === undefined ? [] : [sql`enabled = ${filters.enabled}`])
        ])
        return Effect.all([
          many(sql`SELECT ${select} FROM ai_agent_evals WHERE ${where} ORDER BY name, id
            LIMIT ${limit} OFFSET ${offset}`),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_evals WHERE ${where}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentEvalRepo.page")
        )
      },
      find: (agentId: AiAgentId, id: AiAgentEvalId) =>
        one(sql`SELECT ${select} FROM ai_agent_evals WHERE agent_id = ${agentId} AND id = ${id}`).pipe(
          Effect.orDie,
          Effect.withSpan("AiAgentEvalRepo.find")
        ),
      /** The agent's first `limit` enabled cases by name: its eval suite. */
      enabled: (agentId: AiAgentId, limit: number) =>
        many(sql`SELECT ${select} FROM ai_agent_evals WHERE agent_id = ${agentId} AND enabled ORDER BY name, id
          LIMIT ${limit}`).pipe(
          Effect.orDie,
          Effect.withSpan("AiAgentEvalRepo.enabled")
        ),
      /** Insert a case; `undefined` when another case of the agent has its name. */
      insert: (id: AiAgentEvalId, workspaceId: WorkspaceId, agentId: AiAgentId, write: EvalWrite) =>
        one(sql`INSERT INTO ai_agent_evals (id, workspace_id, agent_id, name, description, conversation, expectations,
            variables, end_user_id, tool_mocks, weight, tags, enabled, created_at, updated_at)
          VALUES (${id}, ${workspaceId}, ${agentId}, ${write.name}, ${write.description},
            ${json(write.conversation)}::jsonb, ${json(write.expectations)}::jsonb, ${json(write.variables)}::jsonb,
            ${write.endUserId}, ${json(write.toolMocks)}::jsonb, ${write.weight}, ${json(write.tags)}::jsonb,
            ${write.enabled}, ${write.at}, ${write.at})
          ON CONFLICT (agent_id, name) DO NOTHING
          RETURNING ${select}`).pipe(Effect.orDie, Effect.withSpan("AiAgentEvalRepo.insert")),
      /** Replace a case's fields; `"taken"` when another case of the agent has the new name, `undefined` when gone. */
      update: (agentId: AiAgentId, id: AiAgentEvalId, write: EvalWrite) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const [taken] = yield* sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM ai_agent_evals
              WHERE agent_id = ${agentId} AND name = ${write.name} AND id <> ${id}) AS taken`
            if (taken?.taken === true) return "taken" as const
            return yield* one(sql`UPDATE ai_agent_evals SET name = ${write.name}, description = ${write.description},
                conversation = ${json(write.conversation)}::jsonb, expectations = ${json(write.expectations)}::jsonb,
                variables = ${json(write.variables)}::jsonb, end_user_id = ${write.endUserId},
                tool_mocks = ${json(write.toolMocks)}::jsonb, weight = ${write.weight}, tags = ${
              json(write.tags)
            }::jsonb,
                enabled = ${write.enabled}, updated_at = ${write.at}
              WHERE agent_id = ${agentId} AND id = ${id} RETURNING ${select}`)
          })
        ).pipe(
          // Two renames to one name at once: the constraint refuses the second.
          Effect.catchIf(
            (error) => error._tag === "SqlError" && String(error.cause).includes("ai_agent_evals_agent_id_name_key"),
            () => Effect.succeed("taken" as const)
          ),
          Effect.orDie,
          Effect.withSpan("AiAgentEvalRepo.update")
        ),
      /** Delete a case; whether it was there. */
      delete: (agentId: AiAgentId, id: AiAgentEvalId) =>
        sql<{ id: string }>`DELETE FROM ai_agent_evals WHERE agent_id = ${agentId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("AiAgentEvalRepo.delete")
        )
    } as const
  })
}) {}
