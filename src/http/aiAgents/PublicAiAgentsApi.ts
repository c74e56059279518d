import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { PublicTurnStreamEvent, StreamParams } from "../../domain/aiAgents/AgentStreamEvent.js"
import { AiAgentConversationClosed, AiAgentConversationNotFound } from "../../domain/aiAgents/Conversation.js"
import { PublicAgentToken } from "../../domain/aiAgents/PublicToken.js"
import { PublicAgentNotFound, PublicTurnRequest, PublicTurnResult } from "../../domain/aiAgents/PublicTurn.js"
import { AgentTurnHeaders } from "../../domain/aiAgents/TurnStreamEvents.js"
import { Forbidden, NotReady, UpstreamFailed, ValidationFailed } from "../../domain/HttpErrors.js"
import { IdempotencyKeyReused } from "../../domain/Idempotency.js"
import { TurnFailed } from "../../domain/runtime/RuntimeSession.js"
import { documentEventStream } from "./EventStreamDoc.js"

const publicToken = HttpApiSchema.param("public_token", PublicAgentToken)

/** Public turns of a live AI agent, addressed by its public token (no other credential). */
export class PublicAiAgentsApi extends HttpApiGroup.make("publicAiAgents")
  .add(
    HttpApiEndpoint.post("turn")`/public/ai-agents/${publicToken}/turn`
      .setUrlParams(StreamParams)
      .setHeaders(AgentTurnHeaders)
      .setPayload(PublicTurnRequest)
      .addSuccess(PublicTurnResult)
      .addError(PublicAgentNotFound)
      .addError(AiAgentConversationNotFound)
      .addError(AiAgentConversationClosed)
      .addError(IdempotencyKeyReused)
      .addError(UpstreamFailed)
      .addError(Forbidden)
      .addError(ValidationFailed)
      .addError(TurnFailed)
      .addError(NotReady)
      .annotate(OpenApi.Summary, "Send an end user's message to a live agent")
      .annotate(
        OpenApi.Description,
        "Runs the live version for one turn; omit `conversationId` to start a conversation. A retry with the same " +
          "`Idempotency-Key` answers the stored result and runs nothing twice. A message blocked by an input " +
          "guardrail is a normal answer (`outcome: blocked`). An unknown or rotated token is a 404; a page whose " +
          "`Origin` is not among the agent's embed `allowedOrigins` is a 403; over the workspace's public rate " +
          "limits (per token, per end user: `endUserId`, else the client's address) a 429 with `Retry-After`. With " +
          "`?stream=true` the answer is `text/event-stream`: `message.delta` and `guardrail` events, ending with " +
          "`message.done` (the JSON result) or `error`."
      )
      .pipe(documentEventStream(PublicTurnStreamEvent, "With `?stream=true`: the turn as server-sent events"))
  )
  .prefix("/v1")
  .annotate(OpenApi.Title, "Public AI agents")
  .annotate(
    OpenApi.Description,
    "Public turns for web widgets and integrations. The public token in the path is the only credential; " +
      "turns are rate limited per token and per end user."
  )
{}
