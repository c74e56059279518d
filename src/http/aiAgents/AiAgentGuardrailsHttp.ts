import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentGuardrails } from "../../services/aiAgents/AiAgentGuardrails.js"
import { Api } from "../Api.js"

/** An agent's guardrails; the `ById` forms name the guardrail in the body or the query and do the same. */
export const AiAgentGuardrailsHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentGuardrails",
  (handlers) =>
    Effect.gen(function*() {
      const guardrails = yield* AiAgentGuardrails

      return handlers
        .handle(
          "list",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => guardrails.list(principal, path.slug, urlParams))
        )
        .handle("create", ({ headers, path, payload }) =>
          Effect.gen(function*() {
            return yield* guardrails.create(
              yield* CurrentPrincipal,
              path.slug,
              payload,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle(
          "get",
          ({ path }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => guardrails.get(principal, path.slug, path.guardrail_id))
        )
        .handle("update", ({ headers, path, payload }) =>
          Effect.gen(function*() {
            return yield* guardrails.update(
              yield* CurrentPrincipal,
              path.slug,
              path.guardrail_id,
              payload,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle("delete", ({ headers, path }) =>
          Effect.gen(function*() {
            yield* guardrails.delete(
              yield* CurrentPrincipal,
              path.slug,
              path.guardrail_id,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle("updateById", ({ headers, path, payload: { id, ...patch } }) =>
          Effect.gen(function*() {
            return yield* guardrails.update(
              yield* CurrentPrincipal,
              path.slug,
              id,
              patch,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle("deleteById", ({ headers, path, urlParams }) =>
          Effect.gen(function*() {
            yield* guardrails.delete(
              yield* CurrentPrincipal,
              path.slug,
              urlParams.id,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
    })
)
