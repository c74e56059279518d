import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Invitations } from "../../services/identity/Invitations.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"
import { currentUser } from "./SignedInResponse.js"

export const InvitationsHttpLive = HttpApiBuilder.group(Api, "invitations", (handlers) =>
  Effect.gen(function*() {
    const invitations = yield* Invitations
    const origins = yield* RequestOrigin

    return handlers
      .handle("create", ({ payload, request }) =>
        Effect.gen(function*() {
          return yield* invitations.invite(yield* CurrentPrincipal, payload, yield* origins.of(request))
        }))
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => invitations.list(principal, urlParams)))
      .handle("revoke", ({ path, request }) =>
        Effect.gen(function*() {
          yield* invitations.revoke(yield* CurrentPrincipal, path.invitation_id, yield* origins.of(request))
        }))
      .handle("accept", ({ payload, request }) =>
        Effect.gen(function*() {
          const user = yield* currentUser
          return yield* invitations.accept(user, user.userId, payload.token, yield* origins.of(request))
        }))
  }))
