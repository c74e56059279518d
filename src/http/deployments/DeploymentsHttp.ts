import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Deployments } from "../../services/deployments/Deployments.js"
import { Api } from "../Api.js"

export const DeploymentsHttpLive = HttpApiBuilder.group(Api, "deployments", (handlers) =>
  Effect.gen(function*() {
    const deployments = yield* Deployments

    return handlers
      .handle("createForAgent", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* deployments.create(yield* CurrentPrincipal, path.agent_id, payload, yield* CurrentOrigin)
        }))
      .handle("create", ({ payload: { agentId, ...rest } }) =>
        Effect.gen(function*() {
          return yield* deployments.create(yield* CurrentPrincipal, agentId, rest, yield* CurrentOrigin)
        }))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.list(principal.workspaceId, urlParams)))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.get(principal.workspaceId, path.id)))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          return yield* deployments.revoke(yield* CurrentPrincipal, path.id, yield* CurrentOrigin)
        }))
  }))
