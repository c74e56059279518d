import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AssistantNotFound } from "../../domain/assistants/Assistant.js"
import { ValidationFailed } from "../../domain/HttpErrors.js"
import { Import, ImportId, ImportListParams, ImportNotFound, ImportUnreadable } from "../../domain/imports/Import.js"
import { DrawioImportRequest, SourceImportPayload } from "../../domain/imports/ImportRequest.js"
import { Page } from "../../domain/Pagination.js"
import { RevisionConflict } from "../../domain/Revision.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const id = HttpApiSchema.param("id", ImportId)

/**
 * Imports into Assistants (`/v1/imports`): draw.io diagrams, Mermaid
 * flowcharts, Rasa projects, Dialogflow agents and Parley documents, into a
 * new Assistant or over an existing one's draft, with a report of what was
 * mapped and what was not.
 */
export class ImportsApi extends HttpApiGroup.make("imports")
  .add(
    HttpApiEndpoint.post("importDrawio", "/imports/drawio")
      .setPayload(DrawioImportRequest)
      .addSuccess(Import.json, { status: 201 })
      .addError(AssistantNotFound)
      .addError(ImportUnreadable)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Import a draw.io diagram (plain or compressed, multi-page)")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.post("importSource", "/imports/source")
      .setPayload(SourceImportPayload)
      .addSuccess(Import.json, { status: 201 })
      .addError(AssistantNotFound)
      .addError(ImportUnreadable)
      .addError(ValidationFailed)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Import Mermaid, Rasa, Dialogflow or Parley source (text, a files map, or a zip)")
      .pipe(requires("assistant.write"))
  )
  .add(
    HttpApiEndpoint.get("list", "/imports")
      .setUrlParams(ImportListParams)
      .addSuccess(Page(Import.json))
      .annotate(OpenApi.Summary, "List imports, newest first")
      .pipe(requires("assistant.read"))
  )
  .add(
    HttpApiEndpoint.get("get")`/imports/${id}`
      .addSuccess(Import.json)
      .addError(ImportNotFound)
      .annotate(OpenApi.Summary, "Read an import and its report")
      .pipe(requires("assistant.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "Imports")
  .annotate(
    OpenApi.Description,
    "Create or replace Assistant content from draw.io, Mermaid, Rasa, Dialogflow or Parley sources. An import maps what it can and reports the rest as warnings; it fails only when nothing usable can be read."
  )
{}
