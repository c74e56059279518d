import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { Workspaces } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"
import { currentUser } from "./SignedInResponse.js"

export const WorkspacesHttpLive = HttpApiBuilder.group(Api, "workspaces", (handlers) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces

    return handlers
      .handle(
        "list",
        ({ urlParams }) => Effect.flatMap(currentUser, (user) => workspaces.listOf(user.userId, urlParams))
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* workspaces.create(user, user.userId, payload, yield* CurrentOrigin)
        }))
  }))
