import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * An AI agent's knowledge (DESIGN.md §7): documents, a draft collection like
 * tasks and tools (every write bumps the agent's revision), and their chunks,
 * indexed for hybrid retrieval.
 *
 * - `ai_agent_knowledge`: one row per document, with its inline text or, for
 *   (`content`), the text indexed when it differs (`indexed_text`: HTML as
 *   text, a `url`'s page as last fetched; chunk offsets point into it), its
 *   status and the language configuration of its full-text index. Every
 *   change that needs a new index bumps `generation`; an indexer writes its
 *   chunks only if the generation it read is still current, and holds its
 *   claim on the document until `claimed_until` (another node takes over a
 *   claim that ran out: a node that stopped mid-way).
 * - `ai_agent_knowledge_chunks`: the chunks of a document's indexed text, in
 *   order (`ordinal`, so a hit is widened by ordinal ± 1), with their heading
 *   path and offsets; a `tsvector` in the document's configuration (GIN) and
 *   a trigram GIN index over the text (`pg_trgm`, which PGlite ships as an
 *   extension). Deleting a document deletes its chunks (FK cascade).
 *
 * No vector column: there is no embeddings provider in force yet.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`,
    sql`CREATE TABLE ai_agent_knowledge (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      kind text NOT NULL CHECK (kind IN ('text', 'markdown', 'html', 'pdf-text', 'url')),
      title text NOT NULL,
      content text,
      url text,
      enabled boolean NOT NULL DEFAULT true,
      language regconfig NOT NULL DEFAULT 'english',
      status text NOT NULL CHECK (status IN ('pending', 'indexing', 'ready', 'failed')),
      character_count integer NOT NULL DEFAULT 0,
      chunk_count integer NOT NULL DEFAULT 0,
      error text,
      indexed_at timestamptz,
      indexed_text text,
      generation integer NOT NULL DEFAULT 0,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      UNIQUE (agent_id, url),
      UNIQUE (id, agent_id),
      FOREIGN KEY (agent_id, workspace_id) REFERENCES ai_agents (id, workspace_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_knowledge_list ON ai_agent_knowledge (agent_id, created_at DESC, id DESC)`,
    sql`CREATE INDEX ai_agent_knowledge_unfinished ON ai_agent_knowledge (status)
      WHERE status IN ('pending', 'indexing')`,
    sql`CREATE TABLE ai_agent_knowledge_chunks (
      document_id uuid NOT NULL,
      agent_id uuid NOT NULL,
      ordinal integer NOT NULL,
      heading text NOT NULL,
      start_offset integer NOT NULL,
      end_offset integer NOT NULL,
      text text NOT NULL,
      language regconfig NOT NULL,
      tsv tsvector GENERATED ALWAYS AS (setweight(to_tsvector(language, heading), 'B') || to_tsvector(language, text))
        STORED,
      PRIMARY KEY (document_id, ordinal),
      FOREIGN KEY (document_id, agent_id) REFERENCES ai_agent_knowledge (id, agent_id) ON DELETE CASCADE
    )`,
    sql`CREATE INDEX ai_agent_knowledge_chunks_agent ON ai_agent_knowledge_chunks (agent_id)`,
    sql`CREATE INDEX ai_agent_knowledge_chunks_tsv ON ai_agent_knowledge_chunks USING gin (tsv)`,
    sql`CREATE INDEX ai_agent_knowledge_chunks_trgm ON ai_agent_knowledge_chunks USING gin (text gin_trgm_ops)`
  ], { discard: true }))
