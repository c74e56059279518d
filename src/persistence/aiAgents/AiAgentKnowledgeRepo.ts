/**
 * An agent's knowledge documents (`ai_agent_knowledge`): the draft
 * collection's rows. Lists never read a document's text (nor a `pdf`'s file);
 * `detail` reads the text indexed (a `url`'s page as last fetched, the text
 * extracted from a `pdf`). A write that needs a new
 * index (new content, a new url, `reindex`) sets the document `pending`, moves
 * its `generation` on and drops any indexer's claim: the indexer working on
 * the old generation will not store its chunks. Chunks go with their document
 * (FK cascade).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentKnowledge,
  type AiAgentKnowledgeKind,
  type AiAgentKnowledgeStatus
} from "../../domain/aiAgents/Knowledge.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"

const columns = `id, workspace_id, agent_id, kind, title, NULL::text AS content, url, enabled,
  language::text AS language, status, character_count, chunk_count, error, indexed_at, created_at, updated_at`

const decode = Schema.decodeUnknown(Schema.Array(AiAgentKnowledge))

/** The filters of the list. */
export interface KnowledgeFilter {
  readonly kind: AiAgentKnowledgeKind | undefined
  readonly status: AiAgentKnowledgeStatus | undefined
  readonly q: string | undefined
}

/**
 * What a write stores; `reindex` sends the document back to `pending` under a new generation. On
 * update, a null `content` or `file` keeps the stored one (a `url` document has neither), and so
 * does a `language` left out (on insert: `english`).
 */
export interface KnowledgeWrite {
  readonly title: string
  readonly content: string | null
  readonly url: string | null
  /** A `pdf` document's file. */
  readonly file?: Uint8Array | null | undefined
  /** The text-search configuration of its index. */
  readonly language?: string | undefined
  readonly enabled: boolean
  readonly reindex: boolean
  readonly at: Date
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`)

export class AiAgentKnowledgeRepo extends Effect.Service<AiAgentKnowledgeRepo>()(
  "parley/persistence/AiAgentKnowledgeRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = sql.literal(columns)
      const many = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) => Effect.flatMap(query, decode)
      const one = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        Effect.map(many(query), (documents) => documents[0])
      const existing = <A>(what: string) => (found: A | undefined) =>
        found === undefined ? Effect.die(`the ${what} returned no row`) : Effect.succeed(found)

      return {
        /** A page of the agent's documents, newest first, and how many match. */
        page: (agentId: AiAgentId, filter: KnowledgeFilter, limit: number, offset: number) => {
          const where = sql.and([
            sql`agent_id = ${agentId}`,
            ...(filter.kind === undefined ? [] : [sql`kind = ${filter.kind}`]),
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.q === undefined ? [] : [sql`title ILIKE ${`%${escapeLike(filter.q)}%`}`])
          ])
          return Effect.all([
            many(sql`SELECT ${select} FROM ai_agent_knowledge WHERE ${where}
              ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`),
            sql<{ total: number }>`SELECT count(*)::int AS total FROM ai_agent_knowledge WHERE ${where}`
          ]).pipe(
            Effect.map(([items, [count]]) => ({ items, total: count?.total ?? 0 })),
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.page")
          )
        },
        find: (agentId: AiAgentId, id: AiAgentKnowledgeId) =>
          one(sql`SELECT ${select} FROM ai_agent_knowledge WHERE agent_id = ${agentId} AND id = ${id}`).pipe(
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.find")
          ),
        /**
         * A document with its text: inline content, or the text last indexed for a `url` or a `pdf`
         * (null before). One statement, so the text and the status are of the same moment: two reads
         * could pair an old text with the `ready` of the indexer that replaced it in between.
         */
        detail: (agentId: AiAgentId, id: AiAgentKnowledgeId) =>
          sql<{ text: string | null }>`SELECT ${select}, CASE WHEN kind IN ('url', 'pdf') THEN indexed_text
              ELSE ai_agent_knowledge.content END AS text
            FROM ai_agent_knowledge WHERE agent_id = ${agentId} AND id = ${id}`.pipe(
            Effect.flatMap((rows) =>
              Effect.map(
                decode(rows),
                ([document]) => document === undefined ? undefined : { document, content: rows[0]!.text }
              )
            ),
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.detail")
          ),
        /** Whether another document of the agent (not `except`) has this URL. */
        urlTaken: (agentId: AiAgentId, url: string, except?: AiAgentKnowledgeId) =>
          sql<{ taken: boolean }>`SELECT EXISTS (SELECT 1 FROM ai_agent_knowledge WHERE agent_id = ${agentId}
              AND url = ${url} ${except === undefined ? sql`` : sql`AND id <> ${except}`}) AS taken`.pipe(
            Effect.map(([row]) => row?.taken === true),
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.urlTaken")
          ),
        insert: (
          id: AiAgentKnowledgeId,
          workspaceId: WorkspaceId,
          agentId: AiAgentId,
          kind: AiAgentKnowledgeKind,
          write: KnowledgeWrite
        ) =>
          one(sql`INSERT INTO ai_agent_knowledge (id, workspace_id, agent_id, kind, title, content, url, file,
              language, enabled, status, created_at, updated_at)
            VALUES (${id}, ${workspaceId}, ${agentId}, ${kind}, ${write.title}, ${write.content}, ${write.url},
              ${write.file ?? null}, ${write.language ?? "english"}::regconfig, ${write.enabled}, 'pending',
              ${write.at}, ${write.at})
            RETURNING ${select}`).pipe(
            Effect.flatMap(existing("insert")),
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.insert")
          ),
        update: (agentId: AiAgentId, id: AiAgentKnowledgeId, write: KnowledgeWrite) =>
          one(sql`UPDATE ai_agent_knowledge SET title = ${write.title}, content = coalesce(${write.content}, content),
              url = ${write.url}, file = coalesce(${write.file ?? null}, file),
              language = coalesce(${write.language ?? null}::regconfig, language),
              enabled = ${write.enabled}, updated_at = ${write.at}
              ${
            write.reindex
              ? sql`, status = 'pending', generation = generation + 1, claimed_until = NULL, error = NULL`
              : sql``
          }
            WHERE agent_id = ${agentId} AND id = ${id} RETURNING ${select}`).pipe(
            Effect.flatMap(existing("update")),
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.update")
          ),
        delete: (agentId: AiAgentId, id: AiAgentKnowledgeId) =>
          sql`DELETE FROM ai_agent_knowledge WHERE agent_id = ${agentId} AND id = ${id}`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("AiAgentKnowledgeRepo.delete")
          )
      } as const
    })
  }
) {}
