import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { fromBytes } from "../../domain/aiAgents/knowledge/VectorRanking.js"
import { pgvectorText } from "../aiAgents/PgVector.js"

/** Vectors copied per statement when the column is added to a database that has some already. */
const BACKFILL_BATCH = 500

/**
 * pgvector for the knowledge vectors' ranking where the database has it: the
 * embedded PGlite loads the extension (`@electric-sql/pglite-pgvector`,
 * `PgliteClient.ts`); the PostgreSQL servers here do not have it. When the
 * `vector` extension can be created, `ai_agent_knowledge_vectors` gains
 * `embedding_vector`, a copy of `embedding` as a `vector` of no fixed
 * dimension (models differ; an exact scan needs none), which the search
 * ranks with `<=>` (`KnowledgeVectorRepo.nearest`), and the vectors stored
 * before are copied into it. When it cannot (not installed, or not allowed;
 * tried in a savepoint so the migration goes on), nothing changes and
 * vectors are ranked by exact cosine in Parley (`VectorRanking.nearest`).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const available = yield* sql`SELECT FROM pg_available_extensions WHERE name = 'vector'`
  if (available.length === 0) return
  const created = yield* sql`CREATE EXTENSION IF NOT EXISTS vector`.pipe(
    sql.withTransaction,
    Effect.as(true),
    Effect.catchTag("SqlError", () => Effect.succeed(false))
  )
  if (!created) return
  yield* sql`ALTER TABLE ai_agent_knowledge_vectors ADD COLUMN embedding_vector vector`
  // A row holds both copies: past ~2 kB the larger (the vector) would move out of line (TOAST), and the scan
  // would fetch every vector from there (5× slower at 256 dims); MAIN keeps it in the row, the bytes go out.
  yield* sql`ALTER TABLE ai_agent_knowledge_vectors ALTER COLUMN embedding_vector SET STORAGE MAIN`
  for (;;) {
    const rows = yield* sql<{ documentId: string; ordinal: number; embedding: Uint8Array }>`
      SELECT document_id, ordinal, embedding FROM ai_agent_knowledge_vectors
      WHERE embedding_vector IS NULL LIMIT ${BACKFILL_BATCH}`
    if (rows.length === 0) return
    const values = rows.map((row) => ({
      documentId: row.documentId,
      ordinal: row.ordinal,
      embeddingVector: pgvectorText(fromBytes(row.embedding))
    }))
    yield* sql`UPDATE ai_agent_knowledge_vectors v SET embedding_vector = u.embedding_vector::vector
      FROM ${sql.updateValues(values, "u")}
      WHERE v.document_id = u.document_id::uuid AND v.ordinal = u.ordinal::integer`
  }
})
