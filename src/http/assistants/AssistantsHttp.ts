import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Assistants } from "../../services/assistants/Assistants.js"
import { Intents } from "../../services/assistants/Intents.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"

export const AssistantsHttpLive = HttpApiBuilder.group(Api, "assistants", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const intents = yield* Intents
    const origins = yield* RequestOrigin

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          assistants.list(principal.workspaceId, urlParams)))
      .handle("create", ({ payload, request }) =>
        Effect.gen(function*() {
          return yield* assistants.create(yield* CurrentPrincipal, payload, yield* origins.of(request))
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          assistants.get(principal.workspaceId, path.agent_id)))
      .handle("update", ({ path, payload, request }) =>
        Effect.gen(function*() {
          return yield* assistants.update(yield* CurrentPrincipal, path.agent_id, payload, yield* origins.of(request))
        }))
      .handle("delete", ({ path, request }) =>
        Effect.gen(function*() {
          yield* assistants.remove(yield* CurrentPrincipal, path.agent_id, yield* origins.of(request))
        }))
      .handle("listIntents", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          intents.list(principal.workspaceId, path.agent_id, urlParams)))
      .handle("createIntent", ({ path, payload, request }) =>
        Effect.gen(function*() {
          return yield* intents.create(yield* CurrentPrincipal, path.agent_id, payload, yield* origins.of(request))
        }))
      .handle("updateIntent", ({ path, payload, request }) =>
        Effect.gen(function*() {
          return yield* intents.update(
            yield* CurrentPrincipal,
            path.agent_id,
            path.intent_id,
            payload,
            yield* origins.of(request)
          )
        }))
      .handle("deleteIntent", ({ path, request }) =>
        Effect.gen(function*() {
          yield* intents.remove(yield* CurrentPrincipal, path.agent_id, path.intent_id, yield* origins.of(request))
        }))
  }))
