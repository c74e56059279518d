/**
 * Hybrid retrieval over an agent's knowledge (DESIGN.md §7): the full-text
 * ranking (per language configuration of the documents searched) and the
 * trigram ranking of the same candidates, fused by reciprocal rank fusion
 * (`Rrf.fuse`, k = 60); when no word of the query matches, the trigram
 * index alone finds candidates (a misspelt query).
 * Only enabled documents that are `ready` are searched, and for a published
 * version only those its snapshot lists. A short hit is widened by its
 * neighbouring chunks. No vector ranking: no embeddings provider is in force.
 * The `knowledge_search` tool and the retrieval benchmark both search here.
 */
import { Effect, Either } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import type { KnowledgeCitation } from "../../domain/aiAgents/knowledge/KnowledgeCitation.js"
import { fuse } from "../../domain/aiAgents/knowledge/Rrf.js"
import type { KnowledgeSearchSettings } from "../../domain/aiAgents/ToolConfig.js"
import type { JsonValue } from "../../domain/Json.js"
import { storable } from "../../domain/StorableText.js"
import { KnowledgeIndexRepo, type RankedChunk } from "../../persistence/aiAgents/KnowledgeIndexRepo.js"

/** What to search and how much to return. */
export interface KnowledgeQuery {
  readonly agentId: AiAgentId
  /** Only these documents (a version's); null: every searchable document of the agent. */
  readonly documentIds: ReadonlyArray<AiAgentKnowledgeId> | null
  readonly query: string
  readonly limit: number
  /** Passages whose fused score (0 to 1) is below this are left out. */
  readonly minScore?: number
  /** How many chunks each ranking contributes to the fusion (at least `limit`; 50 unless told). */
  readonly candidates?: number
  /** Widen a hit shorter than this many characters by its neighbours (200 unless told; 0: never). */
  readonly widenBelow?: number
}

const keyOf = (chunk: RankedChunk) => `${chunk.documentId}:${chunk.ordinal}`

export class KnowledgeSearch extends Effect.Service<KnowledgeSearch>()("parley/services/aiAgents/KnowledgeSearch", {
  effect: Effect.gen(function*() {
    const index = yield* KnowledgeIndexRepo

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

    const search = Effect.fn("KnowledgeSearch.search")(function*(request: KnowledgeQuery) {
      // A model may pass on what the user typed: a NUL or a lone surrogate would fail the query itself.
      const query = storable(request.query).trim()
      if (query === "" || request.documentIds?.length === 0) return [] as Array<KnowledgeCitation>
      const scope = { agentId: request.agentId, documentIds: request.documentIds }
      const candidates = Math.max(request.limit, request.candidates ?? 50)
      const languages = yield* index.languages(scope)
      if (languages.length === 0) return []
      const matched = (yield* Effect.forEach(languages, (language) =>
        index.fullText(scope, language, query, candidates)))
        .flat()
      const fullText = [...matched].sort((a, b) => b.rank - a.rank).slice(0, candidates)
      // Trigram similarity ranks the full-text candidates; with none (every word misspelt), the trigram index finds some.
      const trigram = fullText.length > 0
        ? [...fullText].sort((a, b) => b.similarity - a.similarity).filter((chunk) => chunk.similarity > 0)
        : yield* index.trigram(scope, query, candidates)
      const chunks = new Map<string, RankedChunk>([...fullText, ...trigram].map((chunk) => [keyOf(chunk), chunk]))
      const hits = fuse([fullText.map(keyOf), trigram.map(keyOf)])
        .filter((hit) => hit.normalized >= (request.minScore ?? 0))
        .slice(0, request.limit)
      const widenBelow = request.widenBelow ?? 200
      return yield* Effect.forEach(hits, (hit) => {
        const chunk = chunks.get(hit.key)!
        const citation: KnowledgeCitation = {
          documentId: chunk.documentId,
          title: chunk.title,
          heading: chunk.heading,
          start: chunk.startOffset,
          end: chunk.endOffset,
          text: chunk.text,
          score: Math.round(hit.normalized * 10_000) / 10_000
        }
        return chunk.text.length < widenBelow ? widened(citation, chunk.ordinal) : Effect.succeed(citation)
      })
    })

    /**
     * The `knowledge_search` tool: `{ query, limit? }` searched in the documents the run's snapshot
     * lists (narrowed to the tool's own `knowledgeIds` when it has some); `{ results: citations }`, or
     * why the arguments are not a search.
     */
    const forTool = Effect.fn("KnowledgeSearch.forTool")(function*(
      agentId: AiAgentId,
      snapshotIds: ReadonlyArray<AiAgentKnowledgeId>,
      settings: typeof KnowledgeSearchSettings.Type,
      args: JsonValue
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
      const results = yield* search({
        agentId,
        documentIds: only.size === 0 ? snapshotIds : snapshotIds.filter((id) => only.has(id)),
        query,
        limit: limit ?? settings.topK,
        minScore: settings.minScore
      })
      return Either.right({ results } as unknown as JsonValue)
    })

    return { search, forTool } as const
  }),
  dependencies: [KnowledgeIndexRepo.Default]
}) {}
