import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What BM25 needs of an agent's knowledge index (DESIGN.md §7; the ranking
 * itself is `domain/aiAgents/knowledge/Bm25.ts`):
 *
 * - `ai_agent_knowledge_stats`: per agent, how many chunks it has and their
 *   lengths summed (a chunk's length: its indexed tokens, heading included,
 *   stop words not, `sum(cardinality(positions))` over its `tsv`);
 * - `ai_agent_knowledge_terms`: per agent, language configuration and
 *   lexeme, how many of its chunks hold the lexeme (a term no chunk holds
 *   has no row).
 *
 * Triggers on `ai_agent_knowledge_chunks` keep both exact in the transaction
 * that writes the chunks, whatever writes them: the indexer's store (delete
 * the old chunks, insert the new), a failed indexing, and deletions that
 * reach the chunks by cascade (a document, an agent, a workspace). Every
 * write first updates the agent's `stats` row, then its `terms` rows: two
 * transactions changing one agent's index take turns on that row, so their
 * term rows never deadlock. The tables are filled from the chunks already
 * indexed.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`CREATE TABLE ai_agent_knowledge_stats (
      agent_id uuid PRIMARY KEY REFERENCES ai_agents (id) ON DELETE CASCADE,
      chunks integer NOT NULL,
      tokens bigint NOT NULL
    )`,
    sql`CREATE TABLE ai_agent_knowledge_terms (
      agent_id uuid NOT NULL REFERENCES ai_agents (id) ON DELETE CASCADE,
      language regconfig NOT NULL,
      lexeme text NOT NULL,
      chunks integer NOT NULL,
      PRIMARY KEY (agent_id, language, lexeme)
    )`,
    sql`CREATE FUNCTION ai_agent_knowledge_chunk_length(tsv tsvector) RETURNS bigint
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(tsv) $$`,
    sql`CREATE FUNCTION ai_agent_knowledge_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE ai_agent_knowledge_stats s SET chunks = s.chunks - gone.chunks, tokens = s.tokens - gone.tokens
        FROM (SELECT agent_id, count(*)::integer AS chunks, sum(ai_agent_knowledge_chunk_length(tsv)) AS tokens
          FROM old_chunks GROUP BY agent_id) gone
        WHERE s.agent_id = gone.agent_id;
        WITH gone AS (
          SELECT agent_id, language, lexeme, count(*)::integer AS chunks
          FROM old_chunks, unnest(tsvector_to_array(tsv)) AS lexeme GROUP BY agent_id, language, lexeme)
        UPDATE ai_agent_knowledge_terms t SET chunks = t.chunks - gone.chunks FROM gone
        WHERE t.agent_id = gone.agent_id AND t.language = gone.language AND t.lexeme = gone.lexeme;
        DELETE FROM ai_agent_knowledge_terms t
        USING (SELECT DISTINCT agent_id, language, lexeme FROM old_chunks, unnest(tsvector_to_array(tsv)) AS lexeme) gone
        WHERE t.agent_id = gone.agent_id AND t.language = gone.language AND t.lexeme = gone.lexeme AND t.chunks <= 0;
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO ai_agent_knowledge_stats AS s (agent_id, chunks, tokens)
        SELECT agent_id, count(*), sum(ai_agent_knowledge_chunk_length(tsv)) FROM new_chunks
        GROUP BY agent_id ORDER BY agent_id
        ON CONFLICT (agent_id) DO UPDATE SET chunks = s.chunks + excluded.chunks, tokens = s.tokens + excluded.tokens;
        INSERT INTO ai_agent_knowledge_terms AS t (agent_id, language, lexeme, chunks)
        SELECT agent_id, language, lexeme, count(*) FROM new_chunks, unnest(tsvector_to_array(tsv)) AS lexeme
        GROUP BY agent_id, language, lexeme ORDER BY agent_id, language, lexeme
        ON CONFLICT (agent_id, language, lexeme) DO UPDATE SET chunks = t.chunks + excluded.chunks;
      END IF;
      RETURN NULL;
    END
    $$`,
    sql`CREATE TRIGGER ai_agent_knowledge_chunks_inserted AFTER INSERT ON ai_agent_knowledge_chunks
      REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION ai_agent_knowledge_count_terms()`,
    sql`CREATE TRIGGER ai_agent_knowledge_chunks_deleted AFTER DELETE ON ai_agent_knowledge_chunks
      REFERENCING OLD TABLE AS old_chunks FOR EACH STATEMENT EXECUTE FUNCTION ai_agent_knowledge_count_terms()`,
    sql`CREATE TRIGGER ai_agent_knowledge_chunks_updated AFTER UPDATE ON ai_agent_knowledge_chunks
      REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks
      FOR EACH STATEMENT EXECUTE FUNCTION ai_agent_knowledge_count_terms()`,
    sql`INSERT INTO ai_agent_knowledge_stats (agent_id, chunks, tokens)
      SELECT agent_id, count(*), sum(ai_agent_knowledge_chunk_length(tsv)) FROM ai_agent_knowledge_chunks
      GROUP BY agent_id`,
    sql`INSERT INTO ai_agent_knowledge_terms (agent_id, language, lexeme, chunks)
      SELECT agent_id, language, lexeme, count(*) FROM ai_agent_knowledge_chunks, unnest(tsvector_to_array(tsv)) AS lexeme
      GROUP BY agent_id, language, lexeme`
  ], { discard: true }))
