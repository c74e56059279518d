import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Vault } from "../../services/workspace/Vault.js"
import { Api } from "../Api.js"

export const SecretsHttpLive = HttpApiBuilder.group(Api, "secrets", (handlers) =>
  Effect.gen(function*() {
    const vault = yield* Vault

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => vault.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* vault.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("rotate", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* vault.rotate(yield* CurrentPrincipal, path.secret_id, payload, yield* CurrentOrigin)
        }))
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* vault.delete(yield* CurrentPrincipal, path.secret_id, urlParams.force, yield* CurrentOrigin)
        }))
  }))
