import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { ApiTokens } from "../../services/identity/ApiTokens.js"
import { Api } from "../Api.js"

export const ApiTokensHttpLive = HttpApiBuilder.group(Api, "apiTokens", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* ApiTokens

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => tokens.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* tokens.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* tokens.revoke(yield* CurrentPrincipal, path.id, yield* CurrentOrigin)
        }))
  }))
