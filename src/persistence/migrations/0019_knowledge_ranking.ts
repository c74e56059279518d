import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * What BM25 needs of an agent's knowledge index (DESIGN.md §7; the ranking
 * itself is `domain/aiAgents/knowledge/Bm25.ts`):
 *
 * - each chunk's length, `token_count`: its indexed tokens, heading
 *   included, stop words not (`sum(cardinality(positions))` over its `tsv`).
 *   A row trigger now derives `tsv` (as the generated column did) and
 *   `token_count` from the chunk's language, heading and text, so the text is
 *   parsed once;
 * - `ai_agent_knowledge_stats`: per agent and language configuration, how
 *   many chunks there are and their lengths summed;
 * - `ai_agent_knowledge_terms`: per agent, language and lexeme, how many
 *   chunks hold the lexeme (a lexeme no chunk holds has no row).
 *
 * Statement triggers on `ai_agent_knowledge_chunks` keep both tables exact
 * in the transaction that writes the chunks, whatever writes them: the
 * indexer's store (old chunks deleted, new ones inserted), a failed indexing,
 * and deletions that reach the chunks by cascade (a document, an agent, a
 * workspace). Each first locks the agent's `stats` rows in a fixed order,
 * then writes: two transactions that change one agent's index take turns
 * there and never deadlock on its term rows. The tables are filled from the
 * chunks already indexed.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE ai_agent_knowledge_chunks ALTER COLUMN tsv DROP EXPRESSION`,
    sql`ALTER TABLE ai_agent_knowledge_chunks ADD COLUMN token_count integer NOT NULL DEFAULT 0`,
    sql`UPDATE ai_agent_knowledge_chunks
      SET token_count = (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(tsv))`,
    sql`CREATE FUNCTION ai_agent_knowledge_chunk_indexed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.tsv := setweight(to_tsvector(NEW.language, NEW.heading), 'B') || to_tsvector(NEW.language, NEW.text);
      NEW.token_count := (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(NEW.tsv));
      RETURN NEW;
    END
    $$`,
    sql`CREATE TRIGGER ai_agent_knowledge_chunks_indexed BEFORE INSERT OR UPDATE ON ai_agent_knowledge_chunks
      FOR EACH ROW EXECUTE FUNCTION ai_agent_knowledge_chunk_indexed()`,
    sql`CREATE TABLE ai_agent_knowledge_stats (
      agent_id uuid NOT NULL REFERENCES ai_agents (id) ON DELETE CASCADE,
      language regconfig NOT NULL,
      chunks integer NOT NULL,
      tokens bigint NOT NULL,
      PRIMARY KEY (agent_id, language)
    )`,
    sql`CREATE TABLE ai_agent_knowledge_terms (
      agent_id uuid NOT NULL REFERENCES ai_agents (id) ON DELETE CASCADE,
      language regconfig NOT NULL,
      lexeme text NOT NULL,
      chunks integer NOT NULL,
      PRIMARY KEY (agent_id, language, lexeme)
    )`,
    sql`CREATE FUNCTION ai_agent_knowledge_count_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM 1 FROM ai_agent_knowledge_stats
        WHERE agent_id IN (SELECT agent_id FROM old_chunks) ORDER BY agent_id, language::oid FOR UPDATE;
        UPDATE ai_agent_knowledge_stats s SET chunks = s.chunks - gone.chunks, tokens = s.tokens - gone.tokens
        FROM (SELECT agent_id, language, count(*)::integer AS chunks, sum(token_count) AS tokens
          FROM old_chunks GROUP BY agent_id, language) gone
        WHERE s.agent_id = gone.agent_id AND s.language = gone.language;
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
        PERFORM 1 FROM ai_agent_knowledge_stats
        WHERE agent_id IN (SELECT agent_id FROM new_chunks) ORDER BY agent_id, language::oid FOR UPDATE;
        INSERT INTO ai_agent_knowledge_stats AS s (agent_id, language, chunks, tokens)
        SELECT agent_id, language, count(*), sum(token_count) FROM new_chunks
        GROUP BY agent_id, language ORDER BY agent_id, language::oid
        ON CONFLICT (agent_id, language)
        DO UPDATE SET chunks = s.chunks + excluded.chunks, tokens = s.tokens + excluded.tokens;
        INSERT INTO ai_agent_knowledge_terms AS t (agent_id, language, lexeme, chunks)
        SELECT agent_id, language, lexeme, count(*) FROM new_chunks, unnest(tsvector_to_array(tsv)) AS lexeme
        GROUP BY agent_id, language, lexeme ORDER BY agent_id, language::oid, lexeme
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
    sql`INSERT INTO ai_agent_knowledge_stats (agent_id, language, chunks, tokens)
      SELECT agent_id, language, count(*), sum(token_count) FROM ai_agent_knowledge_chunks GROUP BY agent_id, language`,
    sql`INSERT INTO ai_agent_knowledge_terms (agent_id, language, lexeme, chunks)
      SELECT agent_id, language, lexeme, count(*) FROM ai_agent_knowledge_chunks, unnest(tsvector_to_array(tsv)) AS lexeme
      GROUP BY agent_id, language, lexeme`
  ], { discard: true }))
