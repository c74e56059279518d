import { HttpApiSchema } from "@effect/platform"
import { Model } from "@effect/sql"
import { Schema } from "effect"
import { WorkspaceId } from "../identity/Ids.js"
import { NullableDateTimeField } from "../ModelFields.js"
import { ListParams } from "../Pagination.js"
import { HttpUrl } from "../Url.js"
import { AiAgentId, AiAgentKnowledgeId } from "./Ids.js"

/**
 * What a document is: inline text in one of four formats (`pdf-text` is text
 * already extracted from a PDF), a `pdf` file whose text the server extracts,
 * or a `url` whose page is fetched when the document is created or re-indexed.
 */
export const AiAgentKnowledgeKind = Schema.Literal("text", "markdown", "html", "pdf-text", "pdf", "url").annotations({
  identifier: "AiAgentKnowledgeKind"
})
export type AiAgentKnowledgeKind = typeof AiAgentKnowledgeKind.Type

/** Where indexing stands: waiting, chunking and indexing, searchable, or failed (see `error`). */
export const AiAgentKnowledgeStatus = Schema.Literal("pending", "indexing", "ready", "failed").annotations({
  identifier: "AiAgentKnowledgeStatus"
})
export type AiAgentKnowledgeStatus = typeof AiAgentKnowledgeStatus.Type

/** A document's title, shown in citations: trimmed, 1 to 200 characters. */
export const AiAgentKnowledgeTitle = Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(200))

/**
 * The full-text search configurations a document may be indexed in: those PostgreSQL 15 and the
 * embedded PostgreSQL (PGlite) both have (`pg_ts_config`). `simple` only lowercases: no stemming,
 * no stop words.
 */
export const KNOWLEDGE_LANGUAGES = [
  "arabic",
  "armenian",
  "basque",
  "catalan",
  "danish",
  "dutch",
  "english",
  "finnish",
  "french",
  "german",
  "greek",
  "hindi",
  "hungarian",
  "indonesian",
  "irish",
  "italian",
  "lithuanian",
  "nepali",
  "norwegian",
  "portuguese",
  "romanian",
  "russian",
  "serbian",
  "simple",
  "spanish",
  "swedish",
  "tamil",
  "turkish",
  "yiddish"
] as const

/** The language of a document's full-text index: how its words (and the queries') are stemmed. */
export const AiAgentKnowledgeLanguage = Schema.Literal(...KNOWLEDGE_LANGUAGES).annotations({
  identifier: "AiAgentKnowledgeLanguage",
  message: () => ({
    message: `a text-search configuration: one of ${KNOWLEDGE_LANGUAGES.join(", ")}`,
    override: true
  }),
  description: "The text-search configuration the document is indexed in (its words stemmed in this language); " +
    "`simple` does no stemming. Default `english`; a change re-indexes the document."
})
export type AiAgentKnowledgeLanguage = typeof AiAgentKnowledgeLanguage.Type

/** The largest PDF file, in bytes: its base64 (4/3 of it) fits the upload limit of 10 MiB. */
export const MAX_KNOWLEDGE_PDF_BYTES = 7 * 1024 * 1024

/** A PDF file sent as base64 (standard alphabet, with padding): 1 byte to 7 MiB once decoded. */
export const AiAgentKnowledgeFile = Schema.String.annotations({
  description: "The PDF file's bytes as base64, at most 7 MiB decoded (`pdf` documents only); the server " +
    "extracts its text when it indexes the document",
  jsonSchema: { contentEncoding: "base64", contentMediaType: "application/pdf" }
}).pipe(
  Schema.compose(Schema.Uint8ArrayFromBase64),
  Schema.filter((bytes) =>
    bytes.length === 0
      ? "the file is empty"
      : bytes.length > MAX_KNOWLEDGE_PDF_BYTES
      ? `the file is larger than ${MAX_KNOWLEDGE_PDF_BYTES} bytes (7 MiB)`
      : true
  ),
  Schema.annotations({ identifier: "AiAgentKnowledgeFile" })
)

/** The largest inline document, in characters (the route accepts bodies up to the upload limit, 10 MiB). */
export const MAX_KNOWLEDGE_CHARACTERS = 5_000_000

/** The text of an inline document: 1 to 5,000,000 characters. */
export const AiAgentKnowledgeContent = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(MAX_KNOWLEDGE_CHARACTERS),
  Schema.annotations({ description: `The document's text, at most ${MAX_KNOWLEDGE_CHARACTERS} characters` })
)

/**
 * A knowledge document of an AI agent, chunked and indexed for hybrid
 * retrieval (full text, trigram, and vectors when an embeddings provider is
 * configured) and searched by the `knowledge_search` tool. The text is not
 * part of list or write responses; `GET /knowledge/{knowledge_id}` returns it.
 */
export class AiAgentKnowledge extends Model.Class<AiAgentKnowledge>("AiAgentKnowledge")({
  id: Model.Generated(AiAgentKnowledgeId),
  workspaceId: Model.FieldExcept("jsonCreate", "jsonUpdate")(WorkspaceId),
  agentId: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentId),
  /** Fixed at creation. */
  kind: AiAgentKnowledgeKind,
  title: AiAgentKnowledgeTitle,
  /** Inline kinds only (required there); null for `url`. */
  content: Model.FieldExcept("json")(
    Schema.optionalWith(Schema.NullOr(AiAgentKnowledgeContent), { default: () => null })
  ),
  /** `url` kind only (required there); null for inline kinds. Unique per agent. */
  url: Schema.optionalWith(Schema.NullOr(HttpUrl), { default: () => null }),
  /**
   * `pdf` kind only (required there), on creation: the file, whose text is extracted when it is indexed.
   * Neither null nor a union: a refusal must not quote megabytes of base64 back.
   */
  file: Model.FieldOnly("jsonCreate")(Schema.optionalWith(AiAgentKnowledgeFile, { exact: true })),
  language: Schema.optionalWith(AiAgentKnowledgeLanguage, { exact: true, default: () => "english" as const }),
  /** A disabled document stays indexed but is left out of search. */
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  status: Model.FieldExcept("jsonCreate", "jsonUpdate")(AiAgentKnowledgeStatus),
  /** The length of the indexed text (for `url`, of the fetched page's text; for `pdf`, of the text extracted); 0 before. */
  characterCount: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  chunkCount: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  /** Why the last indexing failed (an unreachable URL, an empty page, an unreadable PDF); null unless `failed`. */
  error: Model.FieldExcept("jsonCreate", "jsonUpdate")(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
  /** When the last indexing finished (for `url`, when the page was fetched); null before. */
  indexedAt: NullableDateTimeField,
  createdAt: Model.DateTimeInsertFromDate,
  updatedAt: Model.DateTimeUpdateFromDate
}) {}

/**
 * The fields of a new document: `content` for inline kinds, `url` for the
 * `url` kind, `file` for the `pdf` kind, never two of them. Indexing starts at
 * once (`status: pending`). Unknown fields are refused.
 */
export const AiAgentKnowledgeCreate = AiAgentKnowledge.jsonCreate.pipe(
  Schema.filter((document) =>
    document.kind === "url"
      ? (document.url !== null && document.content === null && document.file === undefined) ||
        { path: ["url"], message: "a url document needs a url, and no content or file" }
      : document.kind === "pdf"
      ? (document.file !== undefined && document.content === null && document.url === null) ||
        { path: ["file"], message: "a pdf document needs a file (base64), and no content or url" }
      : (document.content !== null && document.url === null && document.file === undefined) ||
        { path: ["content"], message: "an inline document needs content, and no url or file" }
  )
).annotations({ identifier: "AiAgentKnowledgeCreate", parseOptions: { onExcessProperty: "error" } })

/**
 * A document with its text: inline content, the last fetched text of a `url`, the text extracted from a
 * `pdf` (null before the first fetch or extraction).
 */
export const AiAgentKnowledgeDetail = Schema.Struct({
  ...AiAgentKnowledge.json.fields,
  content: Schema.NullOr(AiAgentKnowledgeContent)
}).annotations({ identifier: "AiAgentKnowledgeDetail" })

const knowledgePatchFields = {
  title: Schema.optional(AiAgentKnowledgeTitle),
  /** New text of an inline document (400 for `url` and `pdf`); re-indexes it. */
  content: Schema.optional(AiAgentKnowledgeContent),
  /** A new address of a `url` document (400 for other kinds); re-fetches and re-indexes it. */
  url: Schema.optional(HttpUrl),
  /** A new file of a `pdf` document (400 for other kinds); its text is extracted and indexed again. */
  file: Schema.optionalWith(AiAgentKnowledgeFile, { exact: true }),
  /** Another language for the index; a change re-indexes the document. */
  language: Schema.optionalWith(AiAgentKnowledgeLanguage, { exact: true }),
  enabled: Schema.optional(Schema.Boolean),
  /** Re-index now (for `url`, fetch the page again), even when nothing else changed. */
  reindex: Schema.optional(Schema.Literal(true))
}

/** A partial update of a document (the kind is fixed); a re-index is an update. Unknown fields are refused. */
export const AiAgentKnowledgePatch = Schema.Struct(knowledgePatchFields).annotations({
  identifier: "AiAgentKnowledgePatch",
  parseOptions: { onExcessProperty: "error" }
})

/** A partial update of the document named by `id`, sent to the collection path; unknown fields are refused. */
export const AiAgentKnowledgePatchById = Schema.Struct({ id: AiAgentKnowledgeId, ...knowledgePatchFields })
  .annotations({ identifier: "AiAgentKnowledgePatchById", parseOptions: { onExcessProperty: "error" } })

/** The query of the document list: a page (newest first), optionally by kind, status or title text. */
export const AiAgentKnowledgeListParams = Schema.Struct({
  ...ListParams.fields,
  kind: Schema.optional(AiAgentKnowledgeKind),
  status: Schema.optional(AiAgentKnowledgeStatus),
  /** Only documents whose title contains this text (ignoring case). */
  q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)))
})

/** No document with this id exists in the agent's knowledge. */
export class AiAgentKnowledgeNotFound extends Schema.TaggedError<AiAgentKnowledgeNotFound>()(
  "AiAgentKnowledgeNotFound",
  { knowledgeId: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 404, description: "No document with this id in the agent's knowledge" })
) {}

/** Another document of the agent already has this URL. */
export class AiAgentKnowledgeUrlTaken extends Schema.TaggedError<AiAgentKnowledgeUrlTaken>()(
  "AiAgentKnowledgeUrlTaken",
  { url: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 409, description: "Another document of the agent has this URL" })
) {}

/** A field the document's kind does not have: `content` for `url` and `pdf`, `url` but for `url`, `file` but for `pdf`. */
export class AiAgentKnowledgeKindMismatch extends Schema.TaggedError<AiAgentKnowledgeKindMismatch>()(
  "AiAgentKnowledgeKindMismatch",
  { kind: AiAgentKnowledgeKind, field: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 400, description: "The field does not apply to the document's kind" })
) {}
