import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Workspaces } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"

export const MembersHttpLive = HttpApiBuilder.group(Api, "members", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const origins = yield* RequestOrigin

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          workspaces.members(principal.workspaceId, urlParams)))
      .handle("changeRole", ({ path, payload, request }) =>
        Effect.gen(function*() {
          return yield* workspaces.changeRole(
            yield* CurrentPrincipal,
            path.user_id,
            payload.role,
            yield* origins.of(request)
          )
        }))
      .handle("remove", ({ path, request }) =>
        Effect.gen(function*() {
          yield* workspaces.remove(yield* CurrentPrincipal, path.user_id, yield* origins.of(request))
        }))
  }))
