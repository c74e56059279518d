import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AssistantAnalytics } from "../../services/deployments/AssistantAnalytics.js"
import { Api } from "../Api.js"

export const AssistantAnalyticsHttpLive = HttpApiBuilder.group(
  Api,
  "assistantAnalytics",
  (handlers) =>
    Effect.gen(function*() {
      const analytics = yield* AssistantAnalytics

      return handlers.handle(
        "getAnalytics",
        ({ path, urlParams }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            analytics.report(principal.workspaceId, path.agent_id, urlParams))
      )
    })
)
