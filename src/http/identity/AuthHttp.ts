import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option, Redacted } from "effect"
import { DEVICE_COOKIE } from "../../domain/identity/DeviceCookie.js"
import { InvalidToken } from "../../domain/identity/OneTimeToken.js"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { REFRESH_COOKIE } from "../../domain/identity/Session.js"
import { Accounts } from "../../services/identity/Accounts.js"
import { Sessions } from "../../services/identity/Sessions.js"
import { Api } from "../Api.js"

import { clearSessionCookies } from "./SessionCookies.js"
import { currentUser, loggedIn, signedIn } from "./SignedInResponse.js"

export const AuthHttpLive = HttpApiBuilder.group(Api, "auth", (handlers) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const sessions = yield* Sessions

    return handlers
      .handle("signup", ({ payload }) =>
        CurrentOrigin.pipe(
          Effect.flatMap((origin) => accounts.signup(payload, origin)),
          Effect.flatMap(signedIn)
        ))
      .handle("login", ({ payload, request }) =>
        Effect.gen(function*() {
          const origin = yield* CurrentOrigin
          const accepted = yield* accounts.checkPassword(
            payload.email,
            payload.password,
            origin,
            request.cookies[DEVICE_COOKIE]
          )
          if (accepted._tag === "MfaRequired") {
            return {
              _tag: "MfaRequired",
              mfaRequired: true,
              challengeToken: Redacted.make(accepted.challengeToken),
              expiresIn: accepted.expiresIn
            } as const
          }
          return yield* loggedIn(yield* sessions.start(accepted.userId, origin))
        }))
      .handle("refresh", ({ request }) =>
        Effect.gen(function*() {
          const token = Option.fromNullable(request.cookies[REFRESH_COOKIE])
          if (Option.isNone(token)) {
            return yield* new InvalidToken({ purpose: "refresh", message: "No refresh cookie: sign in" })
          }
          return yield* signedIn(yield* sessions.refresh(token.value, yield* CurrentOrigin))
        }))
      .handle("logout", () =>
        Effect.gen(function*() {
          const user = yield* currentUser
          yield* sessions.logout(user.userId, user.sessionId, yield* CurrentOrigin)
          yield* clearSessionCookies
        }))
      .handle("revokeSessions", ({ urlParams }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          const origin = yield* CurrentOrigin
          if (urlParams.keepCurrent === true) {
            return { revoked: yield* sessions.endOthers(user.userId, user.sessionId, origin) }
          }
          const revoked = yield* sessions.revokeAll(user.userId, origin, Option.none())
          yield* clearSessionCookies
          return { revoked }
        }))
      .handle("forgotPassword", ({ payload }) =>
        Effect.flatMap(CurrentOrigin, (origin) => accounts.forgotPassword(payload.email, origin)))
      .handle("resetPassword", ({ payload }) =>
        Effect.flatMap(
          CurrentOrigin,
          (origin) =>
            accounts.resetPassword(Redacted.value(payload.token), payload.password, origin)
        ))
      .handle("verifyEmail", ({ payload }) =>
        Effect.flatMap(CurrentOrigin, (origin) =>
          accounts.verifyEmail(Redacted.value(payload.token), origin)))
      .handle("resendVerification", ({ payload }) =>
        Effect.flatMap(CurrentOrigin, (origin) =>
          accounts.resendVerification(payload.email, origin)))
  }))
