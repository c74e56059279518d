import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import { AiAgentAnalytics } from "../../domain/aiAgents/AiAgentAnalytics.js"
import {
  AiAgentConversation,
  AiAgentConversationNotFound,
  ConversationListParams
} from "../../domain/aiAgents/Conversation.js"
import { AiAgentConversationDetail } from "../../domain/aiAgents/ConversationMessage.js"
import { AiAgentConversationId } from "../../domain/aiAgents/Ids.js"
import { AnalyticsParams } from "../../domain/AnalyticsWindow.js"
import { Page } from "../../domain/Pagination.js"
import { Slug } from "../../domain/Slug.js"
import { Authentication } from "../middleware/Authentication.js"
import { requires } from "../RequiredAccess.js"

const slug = HttpApiSchema.param("slug", Slug)
const convoSlug = HttpApiSchema.param("convo_slug", AiAgentConversationId)

/** What an AI agent's users did: its conversations (read-only) and analytics. */
export class AiAgentConversationsApi extends HttpApiGroup.make("aiAgentConversations")
  .add(
    HttpApiEndpoint.get("listConversations")`/ai-agents/${slug}/conversations`
      .setUrlParams(ConversationListParams)
      .addSuccess(Page(AiAgentConversation.json))
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "List the agent's conversations, newest first")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.get("getConversation")`/ai-agents/${slug}/conversations/${convoSlug}`
      .addSuccess(AiAgentConversationDetail)
      .addError(AiAgentNotFound)
      .addError(AiAgentConversationNotFound)
      .annotate(OpenApi.Summary, "Get a conversation with its transcript")
      .pipe(requires("ai-agent.read"))
  )
  .add(
    HttpApiEndpoint.get("getAnalytics")`/ai-agents/${slug}/analytics`
      .setUrlParams(AnalyticsParams)
      .addSuccess(AiAgentAnalytics)
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, "Get the agent's analytics over the last N days")
      .pipe(requires("ai-agent.read"))
  )
  .middleware(Authentication)
  .prefix("/v1")
  .annotate(OpenApi.Title, "AI agent conversations")
  .annotate(
    OpenApi.Description,
    "An AI agent's conversations (`{convo_slug}` is the conversation id, a lowercase UUID) and its analytics."
  )
{}
