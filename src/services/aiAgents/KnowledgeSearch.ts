/**
 * Lexical hybrid retrieval over an agent's knowledge (DESIGN.md §7), with no
 * embeddings provider: BM25 (`Bm25.ts`) over the chunks of each language
 * configuration of the documents searched, its candidates found by the
 * query's rarest terms first (`planQuery`) rather than by every chunk that
 * shares a word; then BM25's best `candidates` chunks fused with their
 * trigram similarities to the query (`LexicalRanking.fuseLexical`). When the
 * index holds no word of the query, the trigram index alone finds candidates
 * (a misspelt query). Only enabled documents that are `ready` are searched,
 * and for a published version only those its snapshot lists. A short hit is
 * widened by its neighbouring chunks. The `knowledge_search` tool and the
 * retrieval benchmark both search here.
 *
 * With the query's embedding (an embeddings provider is configured:
 * `KnowledgeEmbeddings.queryVector`), the chunks nearest it by cosine
 * (`KnowledgeVectorRepo.nearest`: pgvector where the database has it, else
 * `VectorRanking.nearest`; the best `VECTOR_CANDIDATES`) are fused with the
 * lexical ranking by reciprocal rank fusion (`fuseHybrid`, k = 60), and the
 * scores are the fusion's. `forTool` may then have the agent's model order
 * the best passages (`rerank`).
 *
 * A search's statements (scores, passages, neighbours) read one snapshot: a
 * document indexed again meanwhile replaces its chunks under the same
 * ordinals, so a score of the old chunk could otherwise be paired with the
 * new text, or a hit widened with a neighbour of the other version.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { isExact, planQuery, scoreChunk } from "../../domain/aiAgents/knowledge/Bm25.js"
import type { KnowledgeCitation } from "../../domain/aiAgents/knowledge/KnowledgeCitation.js"
import { fuseLexical, LEXICAL_DEFAULTS, type LexicalRanking } from "../../domain/aiAgents/knowledge/LexicalRanking.js"
import { RERANKED_PASSAGES } from "../../domain/aiAgents/knowledge/Rerank.js"
import { fuseHybrid, type QueryVector, VECTOR_CANDIDATES } from "../../domain/aiAgents/knowledge/VectorRanking.js"
import type { KnowledgeSearchSettings } from "../../domain/aiAgents/ToolConfig.js"
import type { JsonValue } from "../../domain/Json.js"
import { storable } from "../../domain/StorableText.js"
import {
  type ChunkKey,
  KnowledgeIndexRepo,
  type Passage,
  type PlannedTerm,
  type SearchScope
} from "../../persistence/aiAgents/KnowledgeIndexRepo.js"
import { KnowledgeVectorRepo } from "../../persistence/aiAgents/KnowledgeVectorRepo.js"
import { snapshot } from "../../persistence/Transaction.js"

/** What to search and how much to return. */
export interface KnowledgeQuery {
  readonly agentId: AiAgentId
  /** Only these documents (a version's); null: every searchable document of the agent. */
  readonly documentIds: ReadonlyArray<AiAgentKnowledgeId> | null
  readonly query: string
  readonly limit: number
  /** Passages whose fused score (0 to 1) is below this are left out. */
  readonly minScore?: number
  /**
   * How many of BM25's best chunks the trigram similarities re-rank (`limit` but at least `RERANKED`
   * unless told); results past them keep BM25's order.
   */
  readonly candidates?: number
  /** Widen a hit shorter than this many characters by its neighbours (200 unless told; 0: never). */
  readonly widenBelow?: number
  /** Other ranking parameters than `LEXICAL_DEFAULTS` (the benchmark's tuning on its held-out split). */
  readonly ranking?: Partial<LexicalRanking>
  /** The query's embedding: the vector ranking is fused with the lexical one (scores are then the fusion's). */
  readonly vector?: QueryVector | undefined
}

/** What `knowledge_search` may use besides the index: the query's embedding and a rerank by the agent's model. */
export interface SearchAssist {
  /** The query's embedding, or undefined (no provider, or it failed): lexical alone. */
  readonly embed: (query: string) => Effect.Effect<QueryVector | undefined>
  /** The passages in the order the agent's model gives them (their own order when it gives none). */
  readonly rerank: (
    query: string,
    passages: ReadonlyArray<KnowledgeCitation>
  ) => Effect.Effect<ReadonlyArray<KnowledgeCitation>>
}

/**
 * How many of BM25's best chunks the trigram similarities re-rank unless told: 20, 30 and 50 did
 * as well on the held-out split, and each re-ranked chunk costs about 0.3 ms.
 */
export const RERANKED = 30

const keyOf = (chunk: ChunkKey) => `${chunk.documentId}:${chunk.ordinal}`

/** The planned terms of each language, in the order the plan query answered them. */
const byLanguage = (terms: ReadonlyArray<PlannedTerm>) => {
  const groups = new Map<string, Array<PlannedTerm>>()
  for (const term of terms) groups.set(term.language, [...(groups.get(term.language) ?? []), term])
  return groups
}

export class KnowledgeSearch extends Effect.Service<KnowledgeSearch>()("parley/services/aiAgents/KnowledgeSearch", {
  effect: Effect.gen(function*() {
    const index = yield* KnowledgeIndexRepo
    const sql = yield* SqlClient.SqlClient
    const vectors = yield* KnowledgeVectorRepo

    /** A short hit with the text of the chunks either side (contiguous spans only). */
    const widened = (hit: KnowledgeCitation, ordinal: number) =>
      Effect.map(index.neighbours(hit.documentId, ordinal), (around) => {
        let { end, start, text } = hit
        for (const chunk of around) {
          if (chunk.ordinal < ordinal && chunk.endOffset >= start - 2) {
            text = chunk.text.slice(0, Math.max(0, start - chunk.startOffset)) + text
            start = Math.min(start, chunk.startOffset)
          } else if (chunk.ordinal > ordinal && chunk.startOffset <= end + 2) {
            text = text + chunk.text.slice(Math.max(0, end - chunk.startOffset))
            end = Math.max(end, chunk.endOffset)
          }
        }
        return { ...hit, start, end, text }
      })

    /**
     * BM25's best `wanted` chunks over every language of the scope, best first (ties by key), and
     * whether they are exactly an exhaustive BM25's (no probe left out a chunk that could be among
     * them); `checked`: of searchable documents only (see `KnowledgeIndexRepo.candidates`).
     */
    const bm25 = (scope: SearchScope, query: string, wanted: number, ranking: LexicalRanking, checked: boolean) =>
      Effect.gen(function*() {
        const scored: Array<ChunkKey & { readonly bm25: number }> = []
        let exact = true
        for (const terms of byLanguage(yield* index.plan(scope, query)).values()) {
          const plan = planQuery(terms, terms[0]!, ranking.probeBudget, ranking)
          if (plan.terms.length === 0) continue
          const rows = yield* index.candidates(
            scope,
            terms[0]!.language,
            plan.terms.map((term) => term.lexeme),
            plan.probe,
            { cap: ranking.candidateCap, headingWeight: ranking.headingWeight, checked }
          )
          const scores = rows.map((row) => ({
            documentId: row.documentId,
            ordinal: row.ordinal,
            bm25: scoreChunk(plan, row.frequencies, row.length, ranking)
          }))
          scores.sort((a, b) => b.bm25 - a.bm25)
          exact &&= rows.length < ranking.candidateCap && isExact(plan, scores.map((chunk) => chunk.bm25), wanted)
          scored.push(...scores)
        }
        scored.sort((a, b) =>
          b.bm25 - a.bm25 ||
          (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.ordinal - b.ordinal)
        )
        return { best: scored.slice(0, wanted), candidates: scored.length, exact }
      })

    /** The lexical hits fused by RRF with the scope's chunks nearest the query's vector (of its model). */
    const withVectors = (
      scope: SearchScope,
      query: string,
      vector: QueryVector,
      lexical: ReadonlyArray<{ readonly key: Passage; readonly score: number }>
    ) =>
      Effect.gen(function*() {
        const near = yield* vectors.nearest(scope, vector, VECTOR_CANDIDATES)
        const passages = new Map(lexical.map((hit) => [keyOf(hit.key), hit.key]))
        const missing = near.filter((key) => !passages.has(keyOf(key)))
        if (missing.length > 0) {
          for (const passage of yield* index.passages(scope, missing, query, 0)) passages.set(keyOf(passage), passage)
        }
        return fuseHybrid(lexical.map((hit) => keyOf(hit.key)), near.map(keyOf)).flatMap(({ key, score }) => {
          const passage = passages.get(key)
          return passage === undefined ? [] : [{ key: passage, score }]
        })
      })

    const search = Effect.fn("KnowledgeSearch.search")(function*(request: KnowledgeQuery) {
      // A model may pass on what the user typed: a NUL or a lone surrogate would fail the query itself.
      const query = storable(request.query).trim()
      if (query === "" || request.documentIds?.length === 0) return [] as Array<KnowledgeCitation>
      const scope = { agentId: request.agentId, documentIds: request.documentIds }
      const ranking = { ...LEXICAL_DEFAULTS, ...request.ranking }
      const reranked = request.candidates ?? Math.max(request.limit, RERANKED)
      const wanted = Math.max(request.limit, reranked)
      let lexical = yield* bm25(scope, query, wanted, ranking, false)
      let found = lexical.best.length === 0 ? [] : yield* index.passages(scope, lexical.best, query, reranked)
      if (found.length < lexical.best.length) {
        // A chunk kept is of a document disabled, being indexed again or gone: rank the searchable ones only.
        lexical = yield* bm25(scope, query, wanted, ranking, true)
        found = lexical.best.length === 0 ? [] : yield* index.passages(scope, lexical.best, query, reranked)
      }
      yield* Effect.annotateCurrentSpan({ candidates: lexical.candidates, exact: lexical.exact })
      const keys = lexical.best.length > 0 ? lexical.best : yield* index.trigram(scope, query, wanted)
      if (keys.length === 0 && request.vector === undefined) return []
      if (lexical.best.length === 0 && keys.length > 0) found = yield* index.passages(scope, keys, query, reranked)
      const passages = new Map(found.map((passage) => [keyOf(passage), passage]))
      const scores = new Map(lexical.best.map((chunk) => [keyOf(chunk), chunk.bm25]))
      const lexicalHits = fuseLexical(
        keys.flatMap((key) => {
          const passage = passages.get(keyOf(key))
          return passage === undefined ? [] : [{
            key: passage,
            bm25: scores.get(keyOf(key)) ?? 0,
            sentenceSimilarity: passage.sentenceSimilarity,
            wordSimilarity: passage.wordSimilarity
          }]
        }),
        ranking
      )
      const ranked = request.vector === undefined
        ? lexicalHits
        : yield* withVectors(scope, query, request.vector, lexicalHits)
      const hits = ranked
        .filter((hit) => hit.score >= (request.minScore ?? 0))
        .slice(0, request.limit)
      const widenBelow = request.widenBelow ?? 200
      return yield* Effect.forEach(hits, ({ key: chunk, score }) => {
        const citation: KnowledgeCitation = {
          documentId: chunk.documentId,
          title: chunk.title,
          heading: chunk.heading,
          start: chunk.startOffset,
          end: chunk.endOffset,
          text: chunk.text,
          score: Math.round(score * 10_000) / 10_000
        }
        return chunk.text.length < widenBelow ? widened(citation, chunk.ordinal) : Effect.succeed(citation)
      })
    }, snapshot(sql))

    /**
     * The `knowledge_search` tool: `{ query, limit? }` searched in the documents the run's snapshot
     * lists (narrowed to the tool's own `knowledgeIds` when it has some); `{ results: citations }`, or
     * why the arguments are not a search. With `assist`, the query's embedding joins the ranking and,
     * when the tool's `rerank` is on, the agent's model orders the best `RERANKED_PASSAGES` passages.
     */
    const forTool = Effect.fn("KnowledgeSearch.forTool")(function*(
      agentId: AiAgentId,
      snapshotIds: ReadonlyArray<AiAgentKnowledgeId>,
      settings: typeof KnowledgeSearchSettings.Type,
      args: JsonValue,
      assist?: SearchAssist
    ) {
      const fields: Readonly<Record<string, JsonValue>> =
        typeof args === "object" && args !== null && !Array.isArray(args) ? args as never : {}
      const query = fields["query"]
      if (typeof query !== "string" || query.trim() === "" || query.length > 1000) {
        return Either.left("knowledge_search needs `query`: what to look for, 1 to 1000 characters")
      }
      const limit = fields["limit"]
      if (limit !== undefined && !(typeof limit === "number" && Number.isInteger(limit) && limit >= 1 && limit <= 20)) {
        return Either.left("knowledge_search's `limit` is a whole number from 1 to 20")
      }
      const only = new Set(settings.knowledgeIds)
      const wanted = limit ?? settings.topK
      const reranking = settings.rerank && assist !== undefined
      const results = yield* search({
        agentId,
        documentIds: only.size === 0 ? snapshotIds : snapshotIds.filter((id) => only.has(id)),
        query,
        limit: reranking ? Math.max(wanted, RERANKED_PASSAGES) : wanted,
        minScore: settings.minScore,
        vector: assist === undefined ? undefined : yield* assist.embed(query)
      })
      const ordered = reranking && results.length > 1 ? yield* assist.rerank(query, results) : results
      return Either.right({ results: ordered.slice(0, wanted) } as unknown as JsonValue)
    })

    return { search, forTool } as const
  }),
  dependencies: [KnowledgeIndexRepo.Default, KnowledgeVectorRepo.Default]
}) {}
