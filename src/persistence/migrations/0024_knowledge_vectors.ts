import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Vectors for hybrid knowledge retrieval (DESIGN.md §7), when a workspace
 * configures an embeddings provider:
 *
 * - `agent_llm_settings.embeddings_connection`: that provider, an
 *   `LlmConnection` as JSON (null: none);
 * - `ai_agent_knowledge_vectors`: one row per embedded chunk, its unit
 *   vector as little-endian float32 bytes and the model that made it (a
 *   chunk whose vector is of another model than the workspace's now is
 *   embedded again). A table beside the chunks rather than columns on them:
 *   writing a vector must not fire the chunks' update triggers, which
 *   re-derive the full-text index and the term statistics (migration 0019).
 *   A chunk deleted or replaced (re-indexing) takes its vector (FK cascade).
 *
 * No pgvector: the PostgreSQL servers here do not have it, and the embedded
 * PGlite 0.5 does not ship it in its package; vectors are ranked by exact
 * cosine in Parley (`VectorRanking.ts`).
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE agent_llm_settings ADD COLUMN embeddings_connection jsonb`,
    sql`CREATE TABLE ai_agent_knowledge_vectors (
      document_id uuid NOT NULL,
      ordinal integer NOT NULL,
      agent_id uuid NOT NULL,
      model text NOT NULL,
      embedding bytea NOT NULL,
      PRIMARY KEY (document_id, ordinal),
      FOREIGN KEY (document_id, ordinal) REFERENCES ai_agent_knowledge_chunks (document_id, ordinal) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_knowledge_vectors_agent ON ai_agent_knowledge_vectors (agent_id, model)`
  ], { discard: true }))
