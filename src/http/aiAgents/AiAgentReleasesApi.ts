import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AiAgent, AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentAuditEvent, AiAgentAuditEventListParams } from "../../domain/aiAgents/AiAgentAuditEvent.js"
import { AiAgentEmbed } from "../../domain/aiAgents/AiAgentEmbed.js"
import { AiAgentVersion, AiAgentVersionNotFound } from "../../domain/aiAgents/AiAgentVersion.js"
import { AiAgentVersionParam } from "../../domain/aiAgents/Ids.js"
import { AiAgentNotPublished, PublicTokenIssued } from "../../domain/aiAgents/PublicToken.js"
import {
  AiAgentDraftNotPublishable,
  AiAgentPublishRefused,
  PublishRequest,
  PublishResult
} from "../../domain/aiAgents/Publish.js"
import { UpstreamFailed } from "../../domain/HttpErrors.js"
import { ListParams, Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { Slug } from "../../domain/Slug.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const slug = HttpApiSchema.param("slug", Slug)
const vid = HttpApiSchema.param("vid", AiAgentVersionParam)

/** An AI agent's release boundary: publish, versions, rollback, the public token and embed, and its history. */
export class AiAgentReleasesApi extends HttpApiGroup.make("aiAgentReleases")
  .add(
    HttpApiEndpoint.post("publish")`/ai-agents/${slug}/publish`
      .setPayload(PublishRequest)
      .setHeaders(IfMatchHeaders)
      .addSuccess(PublishResult, { status: 201 })
      .addError(AiAgentNotFound)
      .addError(RevisionConflict)
      .addError(AiAgentDraftNotPublishable)
      .addError(AiAgentPublishRefused)
      .addError(UpstreamFailed)
      .annotate(OpenApi.Summary, "Publish the draft as a new live version")
      .annotate(
        OpenApi.Description,
        "Snapshots the draft as version N and makes it live. When the workspace's agent-ops settings ask for it, " +
          "the eval suite runs against the candidate first, and a score below the minimum or below the live " +
          "version is a 422 with the failing cases. The first publish also answers the public token, once."
      )
      .pipe(requires("ai-agent.publish"))
  )
  .add(
    HttpApiEndpoint.post("rotatePublicToken")`/ai-agents/${slug}/rotate-public-token`
      .addSuccess(PublicTokenIssued)
      .addError(AiAgentNotFound)
      .addError(AiAgentNotPublished)
      .annotate(OpenApi.Summary, "Replace the public token; the old one stops working at once")
      .pipe(requires("ai-agent.publish"))
  )
  .add(
    HttpApiEndpoint.get("getEmbed")`/ai-agents/${slug}/embed`
      .addSuccess(AiAgentEmbed)
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "Get the web widget snippet and settings")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.get("listVersions")`/ai-agents/${slug}/versions`
      .setUrlParams(ListParams)
      .addSuccess(Page(AiAgentVersion.json))
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "List published versions, newest first")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.post("rollback")`/ai-agents/${slug}/rollback/${vid}`
      .addSuccess(AiAgent.json)
      .addError(AiAgentNotFound)
      .addError(AiAgentVersionNotFound)
      .annotate(OpenApi.Summary, "Make an earlier version live again")
      .annotate(
        OpenApi.Description,
        "Makes the version live without copying it or touching the draft, and records an audit event. " +
          "Rolling back to the live version changes nothing."
      )
      .pipe(requires("ai-agent.publish"))
  )
  .add(
    HttpApiEndpoint.get("listAuditEvents")`/ai-agents/${slug}/audit-events`
      .setUrlParams(AiAgentAuditEventListParams)
      .addSuccess(Page(AiAgentAuditEvent))
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "List the agent's history: publishes, rollbacks, rotations and changes")
      .pipe(requires("ai-agent.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent releases")
  .annotate(
    OpenApi.Description,
    "Publishing AI agents (the release boundary), their versions and rollback, the public token and web embed."
  )
{}
