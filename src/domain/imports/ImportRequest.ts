/**
 * The bodies of `POST /imports/drawio` and `POST /imports/source`. A single
 * document arrives as text in a JSON body; a multi-file source (a Rasa
 * project, an unzipped Dialogflow export) as a `files` map of relative path to
 * text; a zipped export as a `multipart/form-data` upload (see `ImportsApi`).
 */
import { HttpApiSchema, Multipart } from "@effect/platform"
import { Schema } from "effect"
import { Assistant, AssistantId } from "../assistants/Assistant.js"
import { Name } from "../Name.js"
import { Revision } from "../Revision.js"

/** Size limits of an import (the body limit of import routes is 10 MiB). */
export const IMPORT_LIMITS = {
  bodyBytes: 10 * 1024 * 1024,
  files: 2000,
  /** Of a zip upload: entries, and bytes once inflated (a zip bomb is refused). */
  archiveEntries: 5000,
  archiveInflatedBytes: 50 * 1024 * 1024
} as const

/** A new Assistant as the examples of /docs name it. */
const exampleTarget = {
  kind: "new",
  name: "Order help",
  description: "",
  language: "en",
  nluThreshold: null
} as const

/** The text of one source document. */
export const SourceText = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(IMPORT_LIMITS.bodyBytes))

/** Create a new Assistant from the import, with these settings. */
export const NewAssistantTarget = Schema.Struct({
  kind: Schema.Literal("new"),
  ...Assistant.jsonCreate.fields
}).annotations({ identifier: "ImportTargetNew" })

/**
 * Replace an existing Assistant's draft flow. Imported intents are merged by
 * name into its intents (utterances added), or replace them all.
 * `revision`, when given, is the draft revision the client expects (a 409 if
 * it moved on).
 */
export const ExistingAssistantTarget = Schema.Struct({
  kind: Schema.Literal("replace"),
  agentId: AssistantId,
  intents: Schema.optionalWith(Schema.Literal("merge", "replace"), { default: () => "merge" as const }),
  revision: Schema.optional(Revision)
}).annotations({ identifier: "ImportTargetReplace" })

/** Where an import writes. */
export const ImportTarget = Schema.Union(NewAssistantTarget, ExistingAssistantTarget).annotations({
  identifier: "ImportTarget"
})
export type ImportTarget = typeof ImportTarget.Type

/**
 * A draw.io diagram: the `.drawio` file's XML (`<mxfile>` with plain or
 * compressed diagrams, or a bare `<mxGraphModel>`). The main page becomes the
 * main flow, every other page a sub-flow. Unknown fields are refused.
 */
export const DrawioImportRequest = Schema.Struct({
  xml: SourceText,
  target: ImportTarget,
  /** The name or id of the page that becomes the main flow; the first page when omitted. */
  mainPage: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)))
}).annotations({
  identifier: "DrawioImportRequest",
  parseOptions: { onExcessProperty: "error" },
  // A diagram of two steps joined by an arrow, as draw.io saves it (uncompressed).
  examples: [{
    xml: "<mxfile><diagram name=\"Page-1\"><mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>" +
      "<mxCell id=\"hello\" value=\"Hello! How can I help?\" vertex=\"1\" parent=\"1\">" +
      "<mxGeometry x=\"40\" y=\"40\" width=\"160\" height=\"60\" as=\"geometry\"/></mxCell>" +
      "<mxCell id=\"bye\" value=\"Goodbye!\" vertex=\"1\" parent=\"1\">" +
      "<mxGeometry x=\"40\" y=\"160\" width=\"160\" height=\"60\" as=\"geometry\"/></mxCell>" +
      "<mxCell id=\"e1\" edge=\"1\" source=\"hello\" target=\"bye\" parent=\"1\"><mxGeometry relative=\"1\" as=\"geometry\"/>" +
      "</mxCell></root></mxGraphModel></diagram></mxfile>",
    target: exampleTarget
  }]
})
export type DrawioImportRequest = typeof DrawioImportRequest.Type

/** The formats `POST /imports/source` reads. `rasa` and `dialogflow` are import-only. */
export const ImportSourceFormat = Schema.Literal("mermaid", "rasa", "dialogflow", "parley").annotations({
  identifier: "ImportSourceFormat"
})
export type ImportSourceFormat = typeof ImportSourceFormat.Type

/** A relative path inside a multi-file source: no leading `/`, no `..` segment, no backslash. */
export const ImportFilePath = Schema.String.pipe(
  Schema.pattern(/^(?!\/)(?!(?:.*\/)?\.\.(?:\/|$))[^\\\0]{1,512}$/),
  Schema.annotations({ identifier: "ImportFilePath", examples: ["data/nlu.yml"] })
)

/** Path to text of each file of a multi-file source (at most 2,000 files). */
export const ImportFiles = Schema.Record({ key: ImportFilePath, value: Schema.String }).pipe(
  Schema.filter((files) => {
    const count = Object.keys(files).length
    return (count >= 1 && count <= IMPORT_LIMITS.files) || `1 to ${IMPORT_LIMITS.files} files`
  }, { jsonSchema: { minProperties: 1, maxProperties: IMPORT_LIMITS.files } }),
  Schema.annotations({ identifier: "ImportFiles" })
)

/** A single-document source: a Mermaid flowchart, a Rasa YAML file, a Dialogflow agent JSON, a Parley document. */
export const SingleSourceImport = Schema.Struct({
  format: ImportSourceFormat,
  content: SourceText,
  /** The document's file name, used in warnings' locations. */
  fileName: Schema.optional(ImportFilePath),
  target: ImportTarget
}).annotations({
  identifier: "SingleSourceImport",
  examples: [{
    format: "mermaid",
    content: "flowchart TD\n  start([Start]) --> hello[Hello! How can I help?]\n  hello --> bye([Goodbye!])",
    fileName: "order-help.mmd",
    target: exampleTarget
  }]
})

/** A multi-file source: a Rasa project (`domain.yml`, `data/*.yml`), an unzipped Dialogflow export. */
export const MultiFileSourceImport = Schema.Struct({
  format: ImportSourceFormat,
  files: ImportFiles,
  target: ImportTarget
}).annotations({ identifier: "MultiFileSourceImport" })

/** The JSON body of `POST /imports/source`: `content` or `files`, exactly one. Unknown fields are refused. */
export const SourceImportRequest = Schema.Union(SingleSourceImport, MultiFileSourceImport).annotations({
  identifier: "SourceImportRequest",
  parseOptions: { onExcessProperty: "error" }
})
export type SourceImportRequest = typeof SourceImportRequest.Type

/** The multi-file formats that may also arrive zipped. */
export const ImportArchiveFormat = Schema.Literal("rasa", "dialogflow").annotations({
  identifier: "ImportArchiveFormat"
})

/**
 * A zipped source as `multipart/form-data` (a Dialogflow export as
 * downloaded, a zipped Rasa project): the zip in `archive`, and the target as
 * form fields, `name` for a new Assistant or `agentId` (with optional
 * `intents` and `revision`) for an existing one, exactly one of the two.
 */
export const SourceArchiveUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    format: ImportArchiveFormat,
    archive: Multipart.SingleFileSchema,
    name: Schema.optional(Name),
    agentId: Schema.optional(AssistantId),
    intents: Schema.optional(Schema.Literal("merge", "replace")),
    revision: Schema.optional(Schema.NumberFromString.pipe(Schema.compose(Revision)))
  }).annotations({ identifier: "SourceArchiveUpload" })
)

/** Everything `POST /imports/source` accepts: the JSON body, or a zip upload. Unknown fields are refused. */
export const SourceImportPayload = Schema.Union(SourceImportRequest, SourceArchiveUpload).annotations({
  parseOptions: { onExcessProperty: "error" }
})
