import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentDrafts } from "../../services/aiAgents/AiAgentDrafts.js"
import { Api } from "../Api.js"

export const AiAgentDraftsHttpLive = HttpApiBuilder.group(Api, "aiAgentDrafts", (handlers) =>
  Effect.gen(function*() {
    const drafts = yield* AiAgentDrafts

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => drafts.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          drafts.create(principal, payload)))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          drafts.get(principal, path.id)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          drafts.update(principal, path.id, payload, headers["if-match"])))
      .handle("delete", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          drafts.remove(principal, path.id)))
  }))
