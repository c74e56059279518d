/**
 * The vectors of an agent's knowledge (`ai_agent_knowledge_vectors`,
 * migration 0024) and what embedding them needs: the embeddings connection
 * of a document's workspace, the chunks still without a vector of that
 * connection's model, the documents waiting for vectors (for the indexer's
 * sweep), and a search scope's chunks nearest a query's vector by exact
 * cosine. Where the database has pgvector (the embedded PGlite; migration
 * 0025, detected once, `PgVector.ts`) each vector is also stored as a
 * `vector` and ranked there (`<=>`, an exact scan); elsewhere the scope's
 * vectors of the model are read whole and ranked in Parley
 * (`VectorRanking.nearest`). A vector is stored only while
 * the document is still `ready` at the generation its chunks were read at: a
 * document indexed again meanwhile has new chunks, and its vectors come with
 * them.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { AiAgentId, AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { fromBytes, nearest, type QueryVector } from "../../domain/aiAgents/knowledge/VectorRanking.js"
import { type WorkspaceId } from "../../domain/identity/Ids.js"
import { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { transaction } from "../Transaction.js"
import type { ChunkKey, SearchScope } from "./KnowledgeIndexRepo.js"
import { hasPgvector, pgvectorText } from "./PgVector.js"

/** A `ready` document with its workspace's embeddings connection (null: the workspace has none). */
export interface EmbeddableDocument {
  readonly id: AiAgentKnowledgeId
  readonly agentId: AiAgentId
  readonly workspaceId: WorkspaceId
  readonly generation: number
  readonly connection: LlmConnection | null
}

/** A chunk to embed: its key and the text embedded (heading path and text). */
export interface ChunkToEmbed {
  readonly ordinal: number
  readonly heading: string
  readonly text: string
}

/** A stored vector: its chunk and its float32 bytes. */
export interface StoredVector extends ChunkKey {
  readonly embedding: Uint8Array
}

const ConnectionColumn = Schema.NullOr(Schema.parseJson(LlmConnection))
const decodeConnection = Schema.decodeUnknownSync(ConnectionColumn)

export class KnowledgeVectorRepo extends Effect.Service<KnowledgeVectorRepo>()(
  "parley/persistence/KnowledgeVectorRepo",
  {
    effect: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const transactional = transaction(sql)
      const pgvector = yield* Effect.cached(hasPgvector(sql))

      /** The vectors of `model` of the scope's searchable chunks (enabled, `ready` documents). */
      const vectors = (scope: SearchScope, model: string) =>
        sql<StoredVector>`SELECT v.document_id, v.ordinal, v.embedding FROM ai_agent_knowledge_vectors v
          JOIN ai_agent_knowledge d ON d.id = v.document_id AND d.enabled AND d.status = 'ready'
          WHERE v.agent_id = ${scope.agentId} AND v.model = ${model}
            ${scope.documentIds === null ? sql`` : sql`AND v.document_id IN ${sql.in(scope.documentIds)}`}`.pipe(
          Effect.orDie,
          Effect.withSpan("KnowledgeVectorRepo.vectors")
        )

      return {
        /** The document if it is `ready`, with its workspace's embeddings connection. */
        document: (id: AiAgentKnowledgeId) =>
          sql<{
            id: AiAgentKnowledgeId
            agentId: AiAgentId
            workspaceId: WorkspaceId
            generation: number
            connection: string | null
          }>`SELECT d.id, d.agent_id, d.workspace_id, d.generation, s.embeddings_connection::text AS connection
            FROM ai_agent_knowledge d LEFT JOIN agent_llm_settings s ON s.workspace_id = d.workspace_id
            WHERE d.id = ${id} AND d.status = 'ready'`.pipe(
            Effect.map((rows): EmbeddableDocument | undefined =>
              rows[0] === undefined ? undefined : { ...rows[0], connection: decodeConnection(rows[0].connection) }
            ),
            Effect.orDie,
            Effect.withSpan("KnowledgeVectorRepo.document")
          ),
        /** The workspace's embeddings connection, or null. */
        connectionOf: (workspaceId: WorkspaceId) =>
          sql<{ connection: string | null }>`SELECT embeddings_connection::text AS connection
            FROM agent_llm_settings WHERE workspace_id = ${workspaceId}`.pipe(
            Effect.map((rows) => decodeConnection(rows[0]?.connection ?? null)),
            Effect.orDie,
            Effect.withSpan("KnowledgeVectorRepo.connectionOf")
          ),
        /** The document's chunks without a vector of `model` (none, or another model's), in order. */
        unembedded: (documentId: AiAgentKnowledgeId, model: string) =>
          sql<ChunkToEmbed>`SELECT c.ordinal, c.heading, c.text FROM ai_agent_knowledge_chunks c
            LEFT JOIN ai_agent_knowledge_vectors v ON v.document_id = c.document_id AND v.ordinal = c.ordinal
            WHERE c.document_id = ${documentId} AND (v.model IS NULL OR v.model <> ${model})
            ORDER BY c.ordinal`.pipe(Effect.orDie, Effect.withSpan("KnowledgeVectorRepo.unembedded")),
        /**
         * Up to `limit` `ready` documents (oldest change first) of workspaces with an embeddings
         * connection that have a chunk without a vector of that connection's model.
         */
        waiting: (limit: number) =>
          sql<{ id: AiAgentKnowledgeId }>`SELECT d.id FROM ai_agent_knowledge d
            JOIN agent_llm_settings s ON s.workspace_id = d.workspace_id AND s.embeddings_connection IS NOT NULL
            WHERE d.status = 'ready' AND EXISTS (SELECT FROM ai_agent_knowledge_chunks c
              LEFT JOIN ai_agent_knowledge_vectors v ON v.document_id = c.document_id AND v.ordinal = c.ordinal
              WHERE c.document_id = d.id
                AND (v.model IS NULL OR v.model <> s.embeddings_connection->>'model'))
            ORDER BY d.updated_at LIMIT ${limit}`.pipe(
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie,
            Effect.withSpan("KnowledgeVectorRepo.waiting")
          ),
        /**
         * Store these chunks' vectors of `model` (replacing another model's) if the document is still
         * `ready` at `generation`; false, and nothing written, otherwise.
         */
        store: (
          document: EmbeddableDocument,
          model: string,
          vectors: ReadonlyArray<{ readonly ordinal: number; readonly embedding: Uint8Array }>
        ) =>
          Effect.gen(function*() {
            const current = yield* sql`SELECT id FROM ai_agent_knowledge
              WHERE id = ${document.id} AND generation = ${document.generation} AND status = 'ready' FOR SHARE`
            if (current.length === 0) return false
            if (vectors.length === 0) return true
            const rows = vectors.map((vector) => ({
              documentId: document.id,
              ordinal: vector.ordinal,
              agentId: document.agentId,
              model,
              embedding: vector.embedding
            }))
            if (yield* pgvector) {
              const withVector = rows.map((row) => ({
                ...row,
                embeddingVector: pgvectorText(fromBytes(row.embedding))
              }))
              yield* sql`INSERT INTO ai_agent_knowledge_vectors ${sql.insert(withVector)}
                ON CONFLICT (document_id, ordinal) DO UPDATE SET model = excluded.model,
                  embedding = excluded.embedding, embedding_vector = excluded.embedding_vector`
            } else {
              yield* sql`INSERT INTO ai_agent_knowledge_vectors ${sql.insert(rows)}
                ON CONFLICT (document_id, ordinal) DO UPDATE SET model = excluded.model, embedding = excluded.embedding`
            }
            return true
          }).pipe(transactional, Effect.withSpan("KnowledgeVectorRepo.store")),
        vectors,
        /**
         * The `limit` searchable chunks of the scope nearest the query by cosine, best first (only
         * vectors of its model and length): ranked by pgvector where the database has it, else here.
         */
        nearest: (scope: SearchScope, query: QueryVector, limit: number) =>
          Effect.gen(function*() {
            if (yield* pgvector) {
              return yield* sql<ChunkKey>`SELECT v.document_id, v.ordinal FROM ai_agent_knowledge_vectors v
                JOIN ai_agent_knowledge d ON d.id = v.document_id AND d.enabled AND d.status = 'ready'
                WHERE v.agent_id = ${scope.agentId} AND v.model = ${query.model}
                  AND vector_dims(v.embedding_vector) = ${query.embedding.length}
                  ${scope.documentIds === null ? sql`` : sql`AND v.document_id IN ${sql.in(scope.documentIds)}`}
                ORDER BY v.embedding_vector <=> ${pgvectorText(query.embedding)}::vector, v.document_id, v.ordinal
                LIMIT ${limit}`.pipe(Effect.orDie)
            }
            const stored = yield* vectors(scope, query.model)
            yield* Effect.annotateCurrentSpan({ vectors: stored.length })
            return nearest(
              query.embedding,
              stored.map((row): { key: ChunkKey; vector: Float32Array } => ({
                key: { documentId: row.documentId, ordinal: row.ordinal },
                vector: fromBytes(row.embedding)
              })),
              limit
            ).map(({ item }) => item.key)
          }).pipe(Effect.withSpan("KnowledgeVectorRepo.nearest"))
      } as const
    })
  }
) {}
