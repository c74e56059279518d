import { Schema } from "effect"
import { AiAgentKnowledgeId } from "../Ids.js"

/**
 * A passage `knowledge_search` found: the document, its title and the
 * heading path the passage sits under, the passage's offsets into the
 * document's indexed text (`text.slice(start, end)`), the passage and its
 * fused score (0 to 1). An answer cites these; the tool result, the stored
 * tool message and the stream's `tool.result` event carry them.
 */
export const KnowledgeCitation = Schema.Struct({
  documentId: AiAgentKnowledgeId,
  title: Schema.String,
  heading: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  text: Schema.String,
  score: Schema.Number
}).annotations({ identifier: "KnowledgeCitation" })
export type KnowledgeCitation = typeof KnowledgeCitation.Type
