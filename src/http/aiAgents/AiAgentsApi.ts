import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { PlaygroundStreamEvent, StreamParams } from "../../domain/aiAgents/AgentStreamEvent.js"
import {
  AiAgent,
  AiAgentCreate,
  AiAgentListParams,
  AiAgentNotFound,
  AiAgentPatch,
  AiAgentSlugTaken
} from "../../domain/aiAgents/AiAgent.js"
import { AiAgentDraftNotFound } from "../../domain/aiAgents/AiAgentDraft.js"
import { AiAgentConversationClosed, AiAgentConversationNotFound } from "../../domain/aiAgents/Conversation.js"
import { DerivedTasks, DeriveTasksRequest } from "../../domain/aiAgents/DerivedTasks.js"
import { PlaygroundRequest, PlaygroundResult } from "../../domain/aiAgents/Playground.js"
import { AgentTurnHeaders } from "../../domain/aiAgents/TurnStreamEvents.js"
import { NotReady, UpstreamFailed, ValidationFailed } from "../../domain/HttpErrors.js"
import { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import { Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { TurnFailed } from "../../domain/runtime/RuntimeSession.js"
import { Slug } from "../../domain/Slug.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"
import { documentEventStream } from "./EventStreamDoc.js"

const slug = HttpApiSchema.param("slug", Slug)

const deriveTasksDescription =
  "Proposes ordered tasks with success criteria from a description, with the workspace's " +
  "LLM when one is configured (`method: llm`) or a deterministic outline otherwise (`method: outline`). Nothing " +
  "is saved. The two routes are one operation; the agent form adds the agent's instructions and existing tasks."

/** AI agents (`/v1/ai-agents`): the agent and its draft configuration, task derivation and the playground. */
export class AiAgentsApi extends HttpApiGroup.make("aiAgents")
  .add(
    HttpApiEndpoint.get("list", "/ai-agents")
      .setUrlParams(AiAgentListParams)
      .addSuccess(Page(AiAgent.json))
      .annotate(OpenApi.Summary, "List AI agents")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.post("create", "/ai-agents")
      .setPayload(AiAgentCreate)
      .addSuccess(AiAgent.json, { status: 201 })
      .addError(AiAgentSlugTaken)
      .addError(AiAgentDraftNotFound)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Create an AI agent (optionally from a wizard draft)")
      .annotate(
        OpenApi.Description,
        "With `fromDraft`, the wizard draft's description, instructions and model settings fill what the request " +
          "leaves at its default, its tools and tasks become the agent's, and the draft is deleted, all at once. " +
          "A part of the draft that cannot become the agent's (a shared tool deleted since) is a 400 naming it."
      )
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.get("get")`/ai-agents/${slug}`
      .addSuccess(AiAgent.json)
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "Get an AI agent and its draft configuration")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.patch("update")`/ai-agents/${slug}`
      .setPayload(AiAgentPatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(AiAgent.json)
      .addError(AiAgentNotFound)
      .addError(RevisionConflict)
      .annotate(OpenApi.Summary, "Update an AI agent's draft")
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.del("delete")`/ai-agents/${slug}`
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "Delete an AI agent, its versions and conversations; its public token stops at once")
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.post("deriveTasks", "/ai-agent-wizard/derive-tasks")
      .setPayload(DeriveTasksRequest)
      .addSuccess(DerivedTasks)
      .addError(UpstreamFailed)
      .annotate(OpenApi.Summary, "Derive tasks from a description (wizard)")
      .annotate(OpenApi.Description, deriveTasksDescription)
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.post("deriveAgentTasks")`/ai-agents/${slug}/derive-tasks`
      .setPayload(DeriveTasksRequest)
      .addSuccess(DerivedTasks)
      .addError(AiAgentNotFound)
      .addError(UpstreamFailed)
      .annotate(OpenApi.Summary, "Derive tasks for an existing agent")
      .annotate(OpenApi.Description, deriveTasksDescription)
      .pipe(requires("ai-agent.write"))
  )
  .add(
    HttpApiEndpoint.post("playground")`/ai-agents/${slug}/playground`
      .setUrlParams(StreamParams)
      .setHeaders(AgentTurnHeaders)
      .setPayload(PlaygroundRequest)
      .addSuccess(PlaygroundResult)
      .addError(AiAgentNotFound)
      .addError(AiAgentConversationNotFound)
      .addError(AiAgentConversationClosed)
      .addError(ValidationFailed)
      .addError(UpstreamFailed)
      .addError(IdempotencyKeyReused)
      .addError(TurnFailed)
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Run the draft: one turn, as JSON or (?stream=true) as server-sent events")
      .annotate(
        OpenApi.Description,
        "Runs the agent's draft for one turn: either a whole transcript (stateless; its last message must be the " +
          "user's, else 400) or one message of a stored playground conversation, which runs once per `Idempotency-Key` " +
          "(a retry with the same key and body answers the stored turn; the same key with another body is a 409). " +
          "With `?stream=true` the answer is " +
          "`text/event-stream`: `message.delta`, `tool.call`, `tool.result` and `guardrail` events, ending with " +
          "`message.done` (the JSON result) or `error`."
      )
      .pipe(
        documentEventStream(PlaygroundStreamEvent, "With `?stream=true`: the run as server-sent events"),
        requires("runtime.simulate")
      )
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agents")
  .annotate(
    OpenApi.Description,
    "Agentic AI agents (the seed's /v1/ai-agents, separate from scripted Assistants), addressed by slug."
  )
{}
