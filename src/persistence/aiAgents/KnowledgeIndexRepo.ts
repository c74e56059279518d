/**
 * The knowledge index (`ai_agent_knowledge_chunks`) and the indexers' claims
 * on documents. A claim is an UPDATE … WHERE status IN ('pending','indexing')
 * with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`): two nodes
 * never take the same document at once, and a document whose indexer stopped
 * is taken again once its lease runs out. An indexer stores its chunks only
 * for the generation it claimed (a newer write sent the document back to
 * `pending`), replacing the old ones in one transaction.
 *
 * Search reads the searchable chunks (enabled, `ready` documents of the
 * agent, optionally only those listed) that match the query's full text
 * (`ts_rank_cd` over an OR of the query's lexemes, in each document's
 * language configuration), each with its trigram word similarity
 * (`pg_trgm`); when none matches, the trigram index alone finds candidates.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import type { AiAgentKnowledgeKind } from "../../domain/aiAgents/Knowledge.js"
import type { Chunk } from "../../domain/aiAgents/knowledge/Chunking.js"
import { transaction } from "../Transaction.js"

/** A document an indexer has claimed: what it needs to index it. */
export interface ClaimedDocument {
  readonly id: AiAgentKnowledgeId
  readonly agentId: AiAgentId
  readonly kind: AiAgentKnowledgeKind
  readonly content: string | null
  readonly url: string | null
  readonly language: string
  readonly generation: number
}

/** A chunk as a ranking found it. */
export interface RankedChunk {
  readonly documentId: AiAgentKnowledgeId
  readonly ordinal: number
  readonly title: string
  readonly heading: string
  readonly startOffset: number
  readonly endOffset: number
  readonly text: string
  readonly rank: number
}

/** Which chunks a search may return: the agent's, and only these documents when given. */
export interface SearchScope {
  readonly agentId: AiAgentId
  readonly documentIds: ReadonlyArray<AiAgentKnowledgeId> | null
}

/** How long a claim holds before another node may take the document over. */
const LEASE_SECONDS = 120
/** Chunks written per statement. */
const BATCH = 500

const claimed = `id, agent_id, kind, content, url, language::text AS language, generation`

export class KnowledgeIndexRepo extends Effect.Service<KnowledgeIndexRepo>()(
  "parley/persistence/KnowledgeIndexRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const transactional = transaction(sql)
      const returning = sql.literal(claimed)
      const lease = sql.literal(`now() + interval '${LEASE_SECONDS} seconds'`)

      const searchable = (scope: SearchScope) =>
        sql`SELECT id, title FROM ai_agent_knowledge WHERE agent_id = ${scope.agentId} AND enabled
          AND status = 'ready' ${scope.documentIds === null ? sql`` : sql`AND id IN ${sql.in(scope.documentIds)}`}`

      return {
        /** Claim this document if it waits (or its indexer's lease ran out). */
        claim: (id: AiAgentKnowledgeId) =>
          sql<ClaimedDocument>`UPDATE ai_agent_knowledge SET status = 'indexing', claimed_until = ${lease}
            WHERE id IN (SELECT id FROM ai_agent_knowledge WHERE id = ${id}
              AND status IN ('pending', 'indexing') AND (claimed_until IS NULL OR claimed_until < now())
              FOR UPDATE SKIP LOCKED)
            RETURNING ${returning}`.pipe(
            Effect.map((rows) => rows[0]),
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.claim")
          ),
        /** Claim up to `limit` waiting documents of any agent (at start, and now and then). */
        claimWaiting: (limit: number) =>
          sql<ClaimedDocument>`UPDATE ai_agent_knowledge SET status = 'indexing', claimed_until = ${lease}
            WHERE id IN (SELECT id FROM ai_agent_knowledge WHERE status IN ('pending', 'indexing')
              AND (claimed_until IS NULL OR claimed_until < now()) ORDER BY updated_at LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING ${returning}`.pipe(Effect.orDie, Effect.withSpan("KnowledgeIndexRepo.claimWaiting")),
        /**
         * Store the chunks of a claimed generation and mark the document ready; false (and nothing
         * written) when the document changed or went since it was claimed.
         */
        store: (
          document: ClaimedDocument,
          indexedText: string | null,
          characterCount: number,
          chunks: ReadonlyArray<Chunk>,
          at: Date
        ) =>
          Effect.gen(function*() {
            const current = yield* sql`SELECT id FROM ai_agent_knowledge
              WHERE id = ${document.id} AND generation = ${document.generation} FOR UPDATE`
            if (current.length === 0) return false
            yield* sql`DELETE FROM ai_agent_knowledge_chunks WHERE document_id = ${document.id}`
            for (let from = 0; from < chunks.length; from += BATCH) {
              const rows = chunks.slice(from, from + BATCH).map((chunk) => ({
                documentId: document.id,
                agentId: document.agentId,
                ordinal: chunk.ordinal,
                heading: chunk.heading,
                startOffset: chunk.start,
                endOffset: chunk.end,
                text: chunk.text,
                language: document.language
              }))
              yield* sql`INSERT INTO ai_agent_knowledge_chunks ${sql.insert(rows)}`
            }
            yield* sql`UPDATE ai_agent_knowledge SET status = 'ready', error = NULL, indexed_text = ${indexedText},
                character_count = ${characterCount}, chunk_count = ${chunks.length}, indexed_at = ${at},
                claimed_until = NULL
              WHERE id = ${document.id}`
            return true
          }).pipe(transactional, Effect.withSpan("KnowledgeIndexRepo.store")),
        /** Mark a claimed generation failed with its reason (the old chunks leave the index). */
        fail: (document: ClaimedDocument, reason: string, at: Date) =>
          Effect.gen(function*() {
            const current = yield* sql`UPDATE ai_agent_knowledge SET status = 'failed', error = ${reason},
                chunk_count = 0, indexed_at = ${at}, claimed_until = NULL
              WHERE id = ${document.id} AND generation = ${document.generation} RETURNING id`
            if (current.length > 0) yield* sql`DELETE FROM ai_agent_knowledge_chunks WHERE document_id = ${document.id}`
          }).pipe(transactional, Effect.withSpan("KnowledgeIndexRepo.fail")),
        /** The language configurations of the searchable documents. */
        languages: (scope: SearchScope) =>
          sql<{ language: string }>`SELECT DISTINCT language::text AS language FROM ai_agent_knowledge
            WHERE id IN (SELECT id FROM (${searchable(scope)}) d)`.pipe(
            Effect.map((rows) => rows.map((row) => row.language)),
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.languages")
          ),
        /**
         * The best `limit` chunks by full-text rank (an OR of the query's lexemes in `language`), each
         * with its trigram word similarity to the query as `similarity`: computing it over the
         * full-text candidates only keeps its cost bounded (over every chunk it is a scan that reads
         * each chunk's trigrams, about 0.3 ms per 800 characters).
         */
        fullText: (scope: SearchScope, language: string, query: string, limit: number) =>
          sql<RankedChunk & { readonly similarity: number }>`WITH q AS MATERIALIZED (
              SELECT coalesce(string_agg(quote_literal(lexeme), ' | '), '')::tsquery AS q
              FROM unnest(tsvector_to_array(to_tsvector(${language}::regconfig, ${query.replace(/\\/g, " ")})))
                AS lexeme),
            ranked AS (
              SELECT c.document_id, c.ordinal, c.heading, c.start_offset, c.end_offset, c.text,
                ts_rank_cd(c.tsv, (SELECT q FROM q)) AS rank
              FROM ai_agent_knowledge_chunks c
              WHERE c.agent_id = ${scope.agentId} AND c.language = ${language}::regconfig
                AND c.tsv @@ (SELECT q FROM q) AND c.document_id IN (SELECT id FROM (${searchable(scope)}) d)
              ORDER BY rank DESC, c.document_id, c.ordinal LIMIT ${limit})
            SELECT ranked.*, d.title, word_similarity(${query}, ranked.text) AS similarity
            FROM ranked JOIN ai_agent_knowledge d ON d.id = ranked.document_id
            ORDER BY ranked.rank DESC, ranked.document_id, ranked.ordinal`.pipe(
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.fullText")
          ),
        /**
         * The best `limit` chunks by trigram word similarity among those the trigram index admits
         * (word similarity at least `pg_trgm.word_similarity_threshold`, 0.6): the search's fallback
         * when no lexeme of the query matched (a misspelt word).
         */
        trigram: (scope: SearchScope, query: string, limit: number) =>
          sql<RankedChunk>`WITH docs AS (${searchable(scope)})
            SELECT c.document_id, c.ordinal, d.title, c.heading, c.start_offset, c.end_offset, c.text,
              word_similarity(${query}, c.text) AS rank
            FROM ai_agent_knowledge_chunks c JOIN docs d ON d.id = c.document_id
            WHERE c.agent_id = ${scope.agentId} AND ${query} <% c.text
            ORDER BY rank DESC, c.document_id, c.ordinal LIMIT ${limit}`.pipe(
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.trigram")
          ),
        /**
         * Fresh planner statistics for the knowledge tables: PGlite has no autovacuum, and without
         * them the planner walks every chunk instead of the full-text index (a 50× slower search).
         */
        analyze: sql`ANALYZE ai_agent_knowledge, ai_agent_knowledge_chunks`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("KnowledgeIndexRepo.analyze")
        ),
        /** The chunks either side of a hit, for widening it. */
        neighbours: (documentId: AiAgentKnowledgeId, ordinal: number) =>
          sql<{ ordinal: number; startOffset: number; endOffset: number; text: string }>`SELECT ordinal,
              start_offset, end_offset, text FROM ai_agent_knowledge_chunks
            WHERE document_id = ${documentId} AND ordinal IN (${ordinal - 1}, ${ordinal + 1}) ORDER BY ordinal`.pipe(
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.neighbours")
          )
      } as const
    })
  }
) {}
