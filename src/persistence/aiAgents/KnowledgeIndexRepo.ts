/**
 * The knowledge index (`ai_agent_knowledge_chunks`) and the indexers' claims
 * on documents. A claim is an UPDATE … WHERE status IN ('pending','indexing')
 * with `FOR UPDATE SKIP LOCKED` and a lease (`claimed_until`): two nodes
 * never take the same document at once, and a document whose indexer stopped
 * is taken again once its lease runs out. An indexer stores its chunks only
 * for the generation it claimed (a newer write sent the document back to
 * `pending`), replacing the old ones in one transaction.
 *
 * Search runs in steps (`KnowledgeSearch` decides between them): `plan`
 * reads the query's lexemes in each language configuration of the agent's
 * index with the index's statistics (`ai_agent_knowledge_terms` and
 * `_stats`, kept exact by triggers: migration 0019); `candidates` reads the
 * searchable chunks (of enabled, `ready` documents of the agent, optionally
 * only those listed) that hold one of the probed lexemes (the GIN index),
 * with their length and how often each query lexeme occurs in them, for
 * BM25; `passages` reads the chunks a ranking kept with their trigram
 * similarities to the query (`pg_trgm`); `trigram` finds chunks by trigrams
 * alone (a query none of whose words the index holds: a misspelling).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import type { AiAgentKnowledgeKind } from "../../domain/aiAgents/Knowledge.js"
import type { TermStatistics } from "../../domain/aiAgents/knowledge/Bm25.js"
import type { Chunk } from "../../domain/aiAgents/knowledge/Chunking.js"
import { transaction } from "../Transaction.js"

/** A document an indexer has claimed: what it needs to index it. */
export interface ClaimedDocument {
  readonly id: AiAgentKnowledgeId
  readonly agentId: AiAgentId
  readonly kind: AiAgentKnowledgeKind
  readonly content: string | null
  readonly url: string | null
  /** A `pdf` document's file. */
  readonly file: Uint8Array | null
  readonly language: string
  readonly generation: number
}

/** A lexeme of the query in one language configuration of the agent's index, with the index's statistics. */
export interface PlannedTerm extends TermStatistics {
  readonly language: string
  /** The agent's chunks in this language, and their lengths summed (`IndexStatistics`). */
  readonly chunks: number
  readonly tokens: number
}

/** A chunk that holds a probed lexeme: its length and how often each lexeme asked about occurs in it. */
export interface CandidateChunk {
  readonly documentId: AiAgentKnowledgeId
  readonly ordinal: number
  readonly length: number
  /** Per lexeme asked about, in that order: occurrences in the text plus `headingWeight` times those in the heading path. */
  readonly frequencies: ReadonlyArray<number>
}

/** A chunk to rank, by its key. */
export interface ChunkKey {
  readonly documentId: AiAgentKnowledgeId
  readonly ordinal: number
}

/** A chunk a search may answer, with its trigram similarities to the query. */
export interface Passage extends ChunkKey {
  readonly title: string
  readonly heading: string
  readonly startOffset: number
  readonly endOffset: number
  readonly text: string
  /** `word_similarity` of the query to the chunk's text (null: not asked for). */
  readonly wordSimilarity: number | null
  /** The best trigram similarity of the query to a sentence (or line) of the chunk, its heading path one of them. */
  readonly sentenceSimilarity: number | null
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

const claimed = `id, agent_id, kind, content, url, file, language::text AS language, generation`

/** Where a chunk's text breaks into sentences for `sentenceSimilarity`: line breaks, and spaces after `.`, `!` or `?`. */
const SENTENCE_BREAK = "\\n+|(?<=[.!?])\\s+"

/** A lexeme as a tsquery operand: quoted, so that it is taken as it is (no parsing, no stemming). */
const operand = (lexeme: string) => `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`

/**
 * `ts_rank_cd`'s weights (D, C, B, A; each at most 1) and the factor that make `factor ×
 * ts_rank_cd(weights, tsv, 'lexeme')` the lexeme's occurrences in the text (D) plus `headingWeight`
 * times those in the heading path (B): for a one-lexeme query every occurrence is a cover of its own
 * and adds its weight. Cheaper than `unnest(tsv)`, which reads every lexeme of the chunk.
 */
const frequencyWeights = (headingWeight: number) => {
  const factor = Math.max(1, headingWeight)
  const text = 1 / factor
  const heading = headingWeight / factor
  return { weights: `{${text},${text},${heading},${heading}}`, factor }
}

export class KnowledgeIndexRepo extends Effect.Service<KnowledgeIndexRepo>()(
  "parley/persistence/KnowledgeIndexRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const transactional = transaction(sql)
      const returning = sql.literal(claimed)
      const lease = sql.literal(`now() + interval '${LEASE_SECONDS} seconds'`)

      /** Whether document `d` is searchable in a scope: enabled, `ready`, the agent's, and listed when a list is given. */
      const searchable = (scope: SearchScope) =>
        sql`d.agent_id = ${scope.agentId} AND d.enabled AND d.status = 'ready'
          ${scope.documentIds === null ? sql`` : sql`AND d.id IN ${sql.in(scope.documentIds)}`}`

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
        /**
         * The query's lexemes in each language configuration of the agent's index (none for a query of
         * stop words only), each with how many of the agent's chunks in that language hold it (0: none),
         * and their count and total length. The statistics are the agent's whole index: a version's or
         * a narrowed tool's documents are ranked with them too.
         */
        plan: (scope: SearchScope, query: string) =>
          sql<PlannedTerm>`SELECT s.language::text AS language, q.lexeme, s.chunks, s.tokens::float8 AS tokens,
              coalesce((SELECT t.chunks FROM ai_agent_knowledge_terms t
                WHERE t.agent_id = s.agent_id AND t.language = s.language AND t.lexeme = q.lexeme), 0) AS document_frequency
            FROM ai_agent_knowledge_stats s
            CROSS JOIN LATERAL (SELECT lexeme FROM unnest(to_tsvector(s.language, ${query}))) q
            WHERE s.agent_id = ${scope.agentId} AND s.chunks > 0
            ORDER BY language, document_frequency, lexeme`.pipe(
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.plan")
          ),
        /**
         * The chunks in `language` that hold one of the `probe` lexemes (at most `cap`, in no
         * particular order), each with its length and the field-weighted frequencies of `lexemes`.
         * `checked`: only searchable chunks; unchecked, every chunk of the scope's documents whatever
         * their state, which spares a lookup of its document per chunk (a third of the work): the
         * caller checks the few it keeps (`passages`) and asks again checked when one is not.
         */
        candidates: (
          scope: SearchScope,
          language: string,
          lexemes: ReadonlyArray<string>,
          probe: ReadonlyArray<string>,
          options: { readonly cap: number; readonly headingWeight: number; readonly checked: boolean }
        ) => {
          const { cap, checked, headingWeight } = options
          const { factor, weights } = frequencyWeights(headingWeight)
          const frequencies = lexemes.map((lexeme) =>
            sql`ts_rank_cd(${weights}::real[], c.tsv, ${operand(lexeme)}::tsquery)`
          )
          return sql<{ documentId: AiAgentKnowledgeId; ordinal: number; length: number; frequencies: Array<number> }>`
            SELECT c.document_id, c.ordinal, c.token_count AS length,
              ARRAY[${sql.join(", ", false)(frequencies)}]::float8[] AS frequencies
            FROM ai_agent_knowledge_chunks c
            WHERE c.agent_id = ${scope.agentId} AND c.language = ${language}::regconfig
              AND c.tsv @@ ${probe.map(operand).join(" | ")}::tsquery
              ${scope.documentIds === null ? sql`` : sql`AND c.document_id IN ${sql.in(scope.documentIds)}`}
              ${
            checked
              ? sql`AND EXISTS (SELECT FROM ai_agent_knowledge d WHERE d.id = c.document_id AND ${searchable(scope)})`
              : sql``
          }
            LIMIT ${cap}`.pipe(
            Effect.map((rows): Array<CandidateChunk> =>
              rows.map((row) => ({ ...row, frequencies: row.frequencies.map((frequency) => frequency * factor) }))
            ),
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.candidates", { attributes: { language, probe: probe.length, checked } })
          )
        },
        /**
         * These chunks, those that exist and are searchable in the scope, with their documents' titles
         * and, for the first `reranked` of them, their trigram similarities to the query (null for the
         * others: the similarities cost about 0.3 ms per chunk of 800 characters).
         */
        passages: (scope: SearchScope, keys: ReadonlyArray<ChunkKey>, query: string, reranked: number) =>
          sql<Passage>`SELECT c.document_id, c.ordinal, d.title, c.heading, c.start_offset, c.end_offset, c.text,
              CASE WHEN k.rerank THEN word_similarity(${query}, c.text) END AS word_similarity,
              CASE WHEN k.rerank THEN (SELECT coalesce(max(similarity(${query}, sentence)), 0)
                FROM regexp_split_to_table(c.heading || chr(10) || c.text, ${SENTENCE_BREAK}) AS sentence
                WHERE sentence <> '') END AS sentence_similarity
            FROM jsonb_to_recordset(${
            JSON.stringify(
              keys.map((key, at) => ({ document_id: key.documentId, ordinal: key.ordinal, rerank: at < reranked }))
            )
          }::jsonb) AS k(document_id uuid, ordinal integer, rerank boolean)
            JOIN ai_agent_knowledge_chunks c ON c.document_id = k.document_id AND c.ordinal = k.ordinal
            JOIN ai_agent_knowledge d ON d.id = c.document_id AND ${searchable(scope)}`.pipe(
            Effect.orDie,
            Effect.withSpan("KnowledgeIndexRepo.passages", { attributes: { chunks: keys.length, reranked } })
          ),
        /**
         * The best `limit` searchable chunks by trigram word similarity among those the trigram index
         * admits (word similarity at least `pg_trgm.word_similarity_threshold`, 0.6): the search's
         * fallback when the index holds no lexeme of the query (a misspelt word).
         */
        trigram: (scope: SearchScope, query: string, limit: number) =>
          sql<ChunkKey>`SELECT c.document_id, c.ordinal FROM ai_agent_knowledge_chunks c
            WHERE c.agent_id = ${scope.agentId} AND ${query} <% c.text
              AND EXISTS (SELECT FROM ai_agent_knowledge d WHERE d.id = c.document_id AND ${searchable(scope)})
            ORDER BY word_similarity(${query}, c.text) DESC, c.document_id, c.ordinal LIMIT ${limit}`.pipe(
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
