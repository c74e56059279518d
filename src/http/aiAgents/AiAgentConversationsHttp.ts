import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentConversations } from "../../services/aiAgents/AgentConversations.js"
import { Api } from "../Api.js"

export const AiAgentConversationsHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentConversations",
  (handlers) =>
    Effect.gen(function*() {
      const conversations = yield* AgentConversations

      return handlers
        .handle(
          "listConversations",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => conversations.list(principal, path.slug, urlParams))
        )
        .handle(
          "getConversation",
          ({ path }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => conversations.get(principal, path.slug, path.convo_slug))
        )
        .handle(
          "getAnalytics",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => conversations.analytics(principal, path.slug, urlParams))
        )
    })
)
