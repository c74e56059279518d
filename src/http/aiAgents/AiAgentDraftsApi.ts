import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import {
  AiAgentDraft,
  AiAgentDraftCreate,
  AiAgentDraftNotFound,
  AiAgentDraftPatch
} from "../../domain/aiAgents/AiAgentDraft.js"
import { AiAgentDraftId } from "../../domain/aiAgents/Ids.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const id = HttpApiSchema.param("id", AiAgentDraftId)

/** Wizard drafts (`/v1/ai-agent-drafts`): work on an AI agent before it exists. */
export class AiAgentDraftsApi extends HttpApiGroup.make("aiAgentDrafts")
  .add(
    HttpApiEndpoint.get("list", "/ai-agent-drafts")
      .setUrlParams(ListParams)
      .addSuccess(Page(AiAgentDraft.json))
      .annotate(OpenApi.Summary, "List wizard drafts, most recently updated first")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/ai-agent-drafts")
      .setPayload(AiAgentDraftCreate)
      .addSuccess(AiAgentDraft.json, { status: 201 })
      .annotate(OpenApi.Summary, "Start a wizard draft")
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/ai-agent-drafts/${id}`
      .addSuccess(AiAgentDraft.json)
      .addError(AiAgentDraftNotFound)
      .annotate(OpenApi.Summary, "Get a wizard draft")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/ai-agent-drafts/${id}`
      .setPayload(AiAgentDraftPatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(AiAgentDraft.json)
      .addError(AiAgentDraftNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Update a wizard draft")
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/ai-agent-drafts/${id}`
      .addError(AiAgentDraftNotFound)
      .annotate(OpenApi.Summary, "Delete a wizard draft")
      .pipe(requires("ai-agent.write"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent drafts")
  .annotate(
    OpenApi.Description,
    "Wizard drafts: name, description, derived tasks and chosen tools, before `POST /v1/ai-agents` with `fromDraft`."
  )
{}
