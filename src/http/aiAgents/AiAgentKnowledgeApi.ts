import { HttpApiGroup, OpenApi } from "@effect/platform"
import { AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import {
  AiAgentKnowledge,
  AiAgentKnowledgeCreate,
  AiAgentKnowledgeDetail,
  AiAgentKnowledgeKindMismatch,
  AiAgentKnowledgeListParams,
  AiAgentKnowledgeNotFound,
  AiAgentKnowledgePatch,
  AiAgentKnowledgePatchById,
  AiAgentKnowledgeUrlTaken
} from "../../domain/aiAgents/Knowledge.js"
import { Authentication } from "../middleware/Authentication.js"
import { collectionEndpoints, draftWrite } from "./collectionEndpoints.js"

const knowledge = collectionEndpoints({
  path: "knowledge",
  itemParam: "knowledge_id",
  id: AiAgentKnowledgeId,
  noun: ["document", "knowledge documents"],
  item: AiAgentKnowledge.json,
  detail: AiAgentKnowledgeDetail,
  listParams: AiAgentKnowledgeListParams,
  create: AiAgentKnowledgeCreate,
  patch: AiAgentKnowledgePatch,
  patchById: AiAgentKnowledgePatchById,
  notFound: AiAgentKnowledgeNotFound
})

const updateDescription = "A new `content`, `url` or `file`, another `language`, or `reindex: true`, sets `status` " +
  "to `pending` and indexes the document again in the background (a `url` is fetched again, a `pdf`'s text " +
  "extracted again); the response does not wait for it."

/** An AI agent's knowledge: documents searched by `knowledge_search` (`/v1/ai-agents/{slug}/knowledge`). */
export class AiAgentKnowledgeApi extends HttpApiGroup.make("aiAgentKnowledge")
  .add(knowledge.list.annotate(OpenApi.Description, "Newest first, without the documents' text."))
  .add(
    draftWrite(knowledge.create)
      .addError(AiAgentKnowledgeUrlTaken)
      .annotate(
        OpenApi.Description,
        "Inline documents carry their text (up to 5,000,000 characters; the body may be up to 10 MiB); a `pdf` " +
          "document carries the file as base64 in `file` (up to 7 MiB), whose text the server extracts (a PDF " +
          "protected by a password, without a text layer, corrupt or of more than 2,000 pages ends `failed` with " +
          "the reason); a `url` document is fetched. Indexing runs in the background: the answer has " +
          "`status: pending`. `language` (default `english`) is the text-search configuration of its index."
      )
  )
  .add(
    knowledge.get.annotate(
      OpenApi.Description,
      "With the document's text (for a `url`, as last fetched; for a `pdf`, as extracted)."
    )
  )
  .add(
    draftWrite(knowledge.update)
      .addError(AiAgentKnowledgeUrlTaken)
      .addError(AiAgentKnowledgeKindMismatch)
      .annotate(OpenApi.Description, updateDescription)
  )
  .add(draftWrite(knowledge.delete).annotate(OpenApi.Description, "Its chunks leave the index at once."))
  .add(
    draftWrite(knowledge.updateById)
      .addError(AiAgentKnowledgeUrlTaken)
      .addError(AiAgentKnowledgeKindMismatch)
  )
  .add(draftWrite(knowledge.deleteById))
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent knowledge")
  .annotate(
    OpenApi.Description,
    "Documents an AI agent answers from: text, Markdown, HTML, PDF files (their text extracted by the server) " +
      "or text already extracted from PDFs, or URLs fetched on demand; chunked and indexed for hybrid retrieval. Part of the draft: writes take `If-Match` with the " +
      "agent's revision and bump it. A version references its documents rather than copying them, so a " +
      "document's new text reaches the live version once it is re-indexed."
  )
{}
