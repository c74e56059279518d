import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { ApiTokens } from "../../services/identity/ApiTokens.js"
import { Api } from "../Api.js"
import { RequestOrigin } from "../RequestOrigin.js"

export const ApiTokensHttpLive = HttpApiBuilder.group(Api, "apiTokens", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* ApiTokens
    const origins = yield* RequestOrigin

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => tokens.list(principal, urlParams)))
      .handle("create", ({ payload, request }) =>
        Effect.gen(function*() {
          return yield* tokens.create(yield* CurrentPrincipal, payload, yield* origins.of(request))
        }))
      .handle("delete", ({ path, request }) =>
        Effect.gen(function*() {
          yield* tokens.revoke(yield* CurrentPrincipal, path.id, yield* origins.of(request))
        }))
  }))
