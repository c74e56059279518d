import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Invitations } from "../../services/identity/Invitations.js"
import { Api } from "../Api.js"
import { currentUser } from "./SignedInResponse.js"

export const InvitationsHttpLive = HttpApiBuilder.group(Api, "invitations", (handlers) =>
  Effect.gen(function*() {
    const invitations = yield* Invitations

    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* invitations.invite(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => invitations.list(principal, urlParams)))
      .handle("revoke", ({ path }) =>
        Effect.gen(function*() {
          yield* invitations.revoke(yield* CurrentPrincipal, path.invitation_id, yield* CurrentOrigin)
        }))
      .handle("accept", ({ payload }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* invitations.accept(user, user.userId, payload.token, yield* CurrentOrigin)
        }))
  }))
