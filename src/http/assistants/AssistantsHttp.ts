import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Assistants } from "../../services/assistants/Assistants.js"
import { Intents } from "../../services/assistants/Intents.js"
import { Api } from "../Api.js"

export const AssistantsHttpLive = HttpApiBuilder.group(Api, "assistants", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const intents = yield* Intents

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          assistants.list(principal.workspaceId, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* assistants.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          assistants.get(principal.workspaceId, path.agent_id)))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* assistants.update(yield* CurrentPrincipal, path.agent_id, payload, yield* CurrentOrigin)
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* assistants.remove(yield* CurrentPrincipal, path.agent_id, yield* CurrentOrigin)
        }))
      .handle("listIntents", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          intents.list(principal.workspaceId, path.agent_id, urlParams)))
      .handle("createIntent", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* intents.create(yield* CurrentPrincipal, path.agent_id, payload, yield* CurrentOrigin)
        }))
      .handle("updateIntent", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* intents.update(
            yield* CurrentPrincipal,
            path.agent_id,
            path.intent_id,
            payload,
            yield* CurrentOrigin
          )
        }))
      .handle("deleteIntent", ({ path }) =>
        Effect.gen(function*() {
          yield* intents.remove(yield* CurrentPrincipal, path.agent_id, path.intent_id, yield* CurrentOrigin)
        }))
  }))
