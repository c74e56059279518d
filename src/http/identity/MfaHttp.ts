import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { Mfa } from "../../services/identity/Mfa.js"
import { Api } from "../Api.js"
import { currentUser, loggedIn } from "./SignedInResponse.js"

export const MfaHttpLive = HttpApiBuilder.group(Api, "mfa", (handlers) =>
  Effect.gen(function*() {
    const mfa = yield* Mfa

    return handlers
      .handle(
        "enroll",
        ({ payload }) => Effect.flatMap(currentUser, (user) => mfa.enroll(user.userId, payload.password))
      )
      .handle("verify", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* mfa.verify(user.userId, payload.code, user.sessionId, yield* CurrentOrigin)
        }))
      .handle("disable", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          yield* mfa.disable(
            user.userId,
            { password: payload.password, code: payload.code, signOutOthers: payload.signOutOtherSessions ?? false },
            user.sessionId,
            yield* CurrentOrigin
          )
        }))
      .handle("challenge", ({ payload }) =>
        Effect.gen(function*() {
          const issued = yield* mfa.challenge(payload.challengeToken, payload.code, yield* CurrentOrigin)
          return yield* loggedIn(issued)
        }))
  }))
