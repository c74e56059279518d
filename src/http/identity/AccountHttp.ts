import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { Accounts } from "../../services/identity/Accounts.js"
import { Sessions } from "../../services/identity/Sessions.js"
import { pageFrom } from "../../services/identity/Workspaces.js"
import { Api } from "../Api.js"
import { clearSessionCookies } from "./SessionCookies.js"
import { currentUser } from "./SignedInResponse.js"

export const AccountHttpLive = HttpApiBuilder.group(Api, "account", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const sessions = yield* Sessions

    return handlers
      .handle("me", () =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* accounts.me(user.userId, user.sessionId)
        }))
      .handle("listSessions", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return pageFrom(yield* sessions.list(user.userId, user.sessionId), urlParams)
        }))
      .handle("reauthenticate", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          const proof = { password: payload.password, code: Option.fromNullable(payload.code) }
          return yield* accounts.reauthenticate(user.userId, user.sessionId, proof, yield* CurrentOrigin)
        }))
      .handle("changePassword", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* accounts.changePassword(user.userId, user.sessionId, {
            proof: { password: payload.currentPassword, code: Option.fromNullable(payload.code) },
            newPassword: payload.newPassword,
            signOutOthers: payload.signOutOtherSessions ?? true
          }, yield* CurrentOrigin)
        }))
      .handle("deleteSession", ({ path }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          yield* sessions.endOne(user.userId, path.id, user.sessionId, yield* CurrentOrigin)
          if (path.id === user.sessionId) yield* clearSessionCookies
        }))
  }))
