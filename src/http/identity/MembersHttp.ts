import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Workspaces } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"

export const MembersHttpLive = HttpApiBuilder.group(Api, "members", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          workspaces.members(principal.workspaceId, urlParams)))
      .handle("changeRole", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* workspaces.changeRole(
            yield* CurrentPrincipal,
            path.user_id,
            payload.role,
            yield* CurrentOrigin
          )
        }))
      .handle("remove", ({ path }) =>
        Effect.gen(function*() {
          yield* workspaces.remove(yield* CurrentPrincipal, path.user_id, yield* CurrentOrigin)
        }))
  }))
