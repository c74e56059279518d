import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentKnowledge } from "../../services/aiAgents/AiAgentKnowledge.js"
import { Api } from "../Api.js"

/** An agent's knowledge documents; the `ById` forms name the document in the body or the query and do the same. */
export const AiAgentKnowledgeHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentKnowledge",
  (handlers) =>
    Effect.gen(function*() {
      const knowledge = yield* AiAgentKnowledge

      return handlers
        .handle(
          "list",
          ({ path, urlParams }) =>
            Effect.flatMap(CurrentPrincipal, (principal) => knowledge.list(principal, path.slug, urlParams))
        )
        .handle("create", ({ headers, path, payload }) =>
          Effect.gen(function*() {
            return yield* knowledge.create(
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
            Effect.flatMap(CurrentPrincipal, (principal) => knowledge.get(principal, path.slug, path.knowledge_id))
        )
        .handle("update", ({ headers, path, payload }) =>
          Effect.gen(function*() {
            return yield* knowledge.update(
              yield* CurrentPrincipal,
              path.slug,
              path.knowledge_id,
              payload,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle("delete", ({ headers, path }) =>
          Effect.gen(function*() {
            yield* knowledge.delete(
              yield* CurrentPrincipal,
              path.slug,
              path.knowledge_id,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
        .handle("updateById", ({ headers, path, payload: { id, ...patch } }) =>
          Effect.gen(function*() {
            return yield* knowledge.update(
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
            yield* knowledge.delete(
              yield* CurrentPrincipal,
              path.slug,
              urlParams.id,
              headers["if-match"],
              yield* CurrentOrigin
            )
          }))
    })
)
