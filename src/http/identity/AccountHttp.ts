import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { WorkspaceRepo } from "../../persistence/identity/WorkspaceRepo.js"
import { Accounts } from "../../services/identity/Accounts.js"
import { Sessions } from "../../services/identity/Sessions.js"
import { pageFrom } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"
import { currentUser } from "./SignedInResponse.js"

export const AccountHttpLive = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const sessions = yield* Sessions
    const workspaces = yield* WorkspaceRepo
    const origins = yield* RequestOrigin

    return handlers
      .handle("me", () =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return {
            user: yield* accounts.profile(user.userId),
            sessionId: user.sessionId,
            memberships: yield* workspaces.membershipsOf(user.userId)
          }
        }))
      .handle("listSessions", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return pageFrom(yield* sessions.list(user.userId, user.sessionId), urlParams)
        }))
      .handle("deleteSession", ({ path, request }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          yield* sessions.endOne(user.userId, path.id, yield* origins.of(request))
        }))
  }))
