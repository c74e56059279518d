import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * Knowledge documents of kind `pdf` (DESIGN.md §7): the uploaded file is kept
 * (`file`, bytea) so that a re-index extracts its text again; the text
 * extracted is the document's `indexed_text`, as a fetched page's is. Other
 * kinds have no file.
 */
export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.all([
    sql`ALTER TABLE ai_agent_knowledge ADD COLUMN file bytea`,
    sql`ALTER TABLE ai_agent_knowledge DROP CONSTRAINT ai_agent_knowledge_kind_check`,
    sql`ALTER TABLE ai_agent_knowledge ADD CONSTRAINT ai_agent_knowledge_kind_check
      CHECK (kind IN ('text', 'markdown', 'html', 'pdf-text', 'pdf', 'url'))`,
    sql`ALTER TABLE ai_agent_knowledge ADD CONSTRAINT ai_agent_knowledge_file_check
      CHECK ((kind = 'pdf') = (file IS NOT NULL))`
  ], { discard: true }))
