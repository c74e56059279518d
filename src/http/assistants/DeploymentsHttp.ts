import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Deployments } from "../../services/deployments/Deployments.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"

export const DeploymentsHttpLive = HttpApiBuilder.group(Api, "deployments", (handlers) =>
  Effect.gen(function*() {
    const deployments = yield* Deployments
    const origins = yield* RequestOrigin

    return handlers
      .handle("createForAgent", ({ path, payload, request }) =>
        Effect.gen(function*() {
          return yield* deployments.create(yield* CurrentPrincipal, path.agent_id, payload, yield* origins.of(request))
        }))
      .handle("create", ({ payload: { agentId, ...rest }, request }) =>
        Effect.gen(function*() {
          return yield* deployments.create(yield* CurrentPrincipal, agentId, rest, yield* origins.of(request))
        }))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.list(principal.workspaceId, urlParams)))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          deployments.get(principal.workspaceId, path.id)))
      .handle("revoke", ({ path, request }) =>
        Effect.gen(function*() {
          return yield* deployments.revoke(yield* CurrentPrincipal, path.id, yield* origins.of(request))
        }))
  }))
