/**
 * `GET /flow/export?format=`. The document comes back as text inside a JSON
 * envelope rather than as a bare body: the contract gives one status one
 * media type, so three formats with three media types would either lie in the
 * OpenAPI document or leave the typed client unable to decode. The envelope
 * carries the media type and a file name for a download, and the revision
 * exported. Importing `content` again (`/imports/drawio`, `/imports/source`)
 * gives back the same graph up to ids and layout.
 */
import { Schema } from "effect"
import { Revision } from "../Revision.js"

/** The formats a flow is exported to: a draw.io diagram, a Mermaid flowchart, or Parley's own JSON document. */
export const FlowExportFormat = Schema.Literal("drawio", "mermaid", "parley").annotations({
  identifier: "FlowExportFormat"
})
export type FlowExportFormat = typeof FlowExportFormat.Type

/** The query of an export. */
export const FlowExportParams = Schema.Struct({ format: FlowExportFormat })

/** An exported flow. */
export const FlowExport = Schema.Struct({
  format: FlowExportFormat,
  revision: Revision,
  /** `application/vnd.jgraph.mxfile`, `text/vnd.mermaid` or `application/json`. */
  contentType: Schema.String,
  /** A suggested file name: `<assistant>.drawio`, `.mmd` or `.parley.json`. */
  fileName: Schema.String,
  /** The document itself (uncompressed draw.io XML, Mermaid text, or the Parley JSON document). */
  content: Schema.String
}).annotations({ identifier: "FlowExport" })
export type FlowExport = typeof FlowExport.Type
