/**
 * Wizard drafts (`ai_agent_drafts`), per workspace. The JSON columns are read
 * as text: the client would rename snake_case keys inside them (answers are
 * keyed by free-form question names).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { AiAgentDraft } from "../../domain/aiAgents/AiAgentDraft.js"
import type { AiAgentDraftId } from "../../domain/aiAgents/Ids.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { Revision } from "../../domain/Revision.js"

const columns = `id, workspace_id, created_by::text AS created_by, step, name, description, proposed_slug,
  instructions, tasks::text AS tasks, tools::text AS tools, model_settings::text AS model_settings,
  answers::text AS answers, revision, created_at, updated_at`

const decodeDrafts = Schema.decodeUnknown(Schema.Array(AiAgentDraft))
const JSON_COLUMNS = ["created_by", "tasks", "tools", "model_settings", "answers"] as const

const draftsOf = (rows: ReadonlyArray<Record<string, unknown>>) =>
  decodeDrafts(rows.map((row) => {
    const parsed: Record<string, unknown> = { ...row }
    for (const column of JSON_COLUMNS) {
      const camel = column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())
      const text = row[camel] ?? row[column]
      delete parsed[column]
      parsed[camel] = text === null || text === undefined ? null : JSON.parse(String(text))
    }
    return parsed
  })).pipe(Effect.orDie)

/** What a write stores of a draft: its JSON fields already encoded. */
export interface DraftWrite {
  readonly step: string
  readonly name: string
  readonly description: string
  readonly proposedSlug: string | null
  readonly instructions: string
  readonly tasks: unknown
  readonly tools: unknown
  readonly modelSettings: unknown
  readonly answers: unknown
}

export class AiAgentDraftRepo extends Effect.Service<AiAgentDraftRepo>()("parley/persistence/AiAgentDraftRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const json = (value: unknown) => value === null ? null : JSON.stringify(value)
    const first = <E, R>(rows: Effect.Effect<ReadonlyArray<Record<string, unknown>>, E, R>) =>
      Effect.map(Effect.flatMap(rows, draftsOf), (drafts) => drafts[0])

    return {
      /** A page of the workspace's drafts, most recently updated first, and how many there are. */
      page: (workspaceId: WorkspaceId, limit: number, offset: number) =>
        Effect.all([
          Effect.flatMap(
            sql`SELECT ${sql.literal(columns)} FROM ai_agent_drafts WHERE workspace_id = ${workspaceId}
                ORDER BY updated_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
            draftsOf
          ),
          sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_drafts WHERE workspace_id = ${workspaceId}`
        ]).pipe(
          Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
          Effect.orDie,
          Effect.withSpan("AiAgentDraftRepo.page")
        ),
      find: (workspaceId: WorkspaceId, id: AiAgentDraftId) =>
        first(
          sql`SELECT ${sql.literal(columns)} FROM ai_agent_drafts WHERE workspace_id = ${workspaceId} AND id = ${id}`
        )
          .pipe(Effect.orDie, Effect.withSpan("AiAgentDraftRepo.find")),
      /** The draft, its row locked until the transaction ends. */
      lock: (workspaceId: WorkspaceId, id: AiAgentDraftId) =>
        first(sql`SELECT ${sql.literal(columns)} FROM ai_agent_drafts WHERE workspace_id = ${workspaceId} AND id = ${id}
                  FOR UPDATE`).pipe(Effect.orDie, Effect.withSpan("AiAgentDraftRepo.lock")),
      insert: (workspaceId: WorkspaceId, id: AiAgentDraftId, createdBy: unknown, write: DraftWrite, now: Date) =>
        first(sql`INSERT INTO ai_agent_drafts (id, workspace_id, created_by, step, name, description, proposed_slug,
                    instructions, tasks, tools, model_settings, answers, revision, created_at, updated_at)
                  VALUES (${id}, ${workspaceId}, ${json(createdBy)}::jsonb, ${write.step}, ${write.name},
                    ${write.description}, ${write.proposedSlug}, ${write.instructions}, ${json(write.tasks)}::jsonb,
                    ${json(write.tools)}::jsonb, ${json(write.modelSettings)}::jsonb, ${json(write.answers)}::jsonb, 1,
                    ${now}, ${now})
                  RETURNING ${sql.literal(columns)}`).pipe(
          Effect.flatMap((draft) =>
            draft === undefined ? Effect.die("the insert returned no row") : Effect.succeed(draft)
          ),
          Effect.orDie,
          Effect.withSpan("AiAgentDraftRepo.insert")
        ),
      /** Store the draft's fields and the next revision, if it still is at `expected`; undefined when it is not. */
      update: (workspaceId: WorkspaceId, id: AiAgentDraftId, expected: Revision, write: DraftWrite, now: Date) =>
        first(sql`UPDATE ai_agent_drafts SET step = ${write.step}, name = ${write.name},
                    description = ${write.description}, proposed_slug = ${write.proposedSlug},
                    instructions = ${write.instructions}, tasks = ${json(write.tasks)}::jsonb,
                    tools = ${json(write.tools)}::jsonb, model_settings = ${json(write.modelSettings)}::jsonb,
                    answers = ${json(write.answers)}::jsonb, revision = revision + 1, updated_at = ${now}
                  WHERE workspace_id = ${workspaceId} AND id = ${id} AND revision = ${expected}
                  RETURNING ${sql.literal(columns)}`).pipe(Effect.orDie, Effect.withSpan("AiAgentDraftRepo.update")),
      /** Whether a draft was removed. */
      remove: (workspaceId: WorkspaceId, id: AiAgentDraftId) =>
        sql`DELETE FROM ai_agent_drafts WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          Effect.orDie,
          Effect.withSpan("AiAgentDraftRepo.remove")
        )
    } as const
  })
}) {}
