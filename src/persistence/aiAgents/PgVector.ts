/**
 * pgvector's side of the knowledge vectors (migration 0025): where the
 * database has the `vector` extension (the embedded PGlite loads it), each
 * stored vector is also kept in `ai_agent_knowledge_vectors.embedding_vector`
 * and ranked there; elsewhere that column does not exist.
 */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** A vector in pgvector's text form (`[0.1,-0.2,…]`); a float32 prints exactly as it reads back. */
export const pgvectorText = (vector: Float32Array): string => `[${vector.join(",")}]`

/** Whether `ai_agent_knowledge_vectors.embedding_vector` exists (migration 0025 found the extension). */
export const hasPgvector = (sql: SqlClient.SqlClient) =>
  sql`SELECT FROM information_schema.columns WHERE table_schema = current_schema()
    AND table_name = 'ai_agent_knowledge_vectors' AND column_name = 'embedding_vector'`.pipe(
    Effect.map((rows) => rows.length > 0),
    Effect.orDie,
    Effect.withSpan("PgVector.hasPgvector")
  )
