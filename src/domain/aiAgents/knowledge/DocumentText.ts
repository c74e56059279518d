/**
 * What a knowledge document indexes, by kind: Markdown as written (its `#`
 * headings open sections), HTML turned into text with its headings kept as
 * Markdown headings, plain and PDF text as they are (no headings); a fetched
 * `url` by the media type it answered with (a `pdf` file's text is laid out
 * by `PdfLayout.ts`). Chunk offsets point into this text, which
 * `GET /knowledge/{id}` returns for a `url` and a `pdf`.
 */
import type { AiAgentKnowledgeKind } from "../Knowledge.js"
import type { ChunkOptions } from "./Chunking.js"
import { htmlToText } from "./HtmlText.js"

/** The text to index and how to cut it. */
export interface DocumentText {
  readonly text: string
  readonly structure: ChunkOptions["structure"]
}

/** The indexed text of an inline document. */
export const inlineText = (kind: Exclude<AiAgentKnowledgeKind, "url" | "pdf">, content: string): DocumentText => {
  switch (kind) {
    case "markdown":
      return { text: content, structure: "markdown" }
    case "html":
      return { text: htmlToText(content).text, structure: "markdown" }
    case "text":
    case "pdf-text":
      return { text: content, structure: "plain" }
  }
}

/** The media types a `url` document may answer with. */
export const fetchableMediaTypes = [
  "text/html",
  "application/xhtml+xml",
  "text/markdown",
  "text/x-markdown",
  "text/plain"
] as const

/** The indexed text of a fetched page, by its `Content-Type`; a reason when the type is not one Parley reads. */
export const fetchedText = (
  contentType: string | undefined,
  body: string
): DocumentText | { readonly refused: string } => {
  const mediaType = (contentType ?? "text/plain").split(";")[0]!.trim().toLowerCase()
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") {
    return { text: htmlToText(body).text, structure: "markdown" }
  }
  if (mediaType === "text/markdown" || mediaType === "text/x-markdown") return { text: body, structure: "markdown" }
  if (mediaType === "text/plain") return { text: body, structure: "plain" }
  return { refused: `the page is ${mediaType}, not HTML, Markdown or plain text` }
}
