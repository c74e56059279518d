import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Workspaces } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"
import { currentUser } from "./SignedInResponse.js"

export const WorkspacesHttpLive = HttpApiBuilder.group(Api, "workspaces", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const origins = yield* RequestOrigin

    return handlers
      .handle(
        "list",
        ({ urlParams }) => Effect.flatMap(currentUser, (user) => workspaces.listOf(user.userId, urlParams))
      )
      .handle("create", ({ payload, request }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* workspaces.create(user, user.userId, payload, yield* origins.of(request))
        }))
  }))
