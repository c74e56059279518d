import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentTools } from "../../services/aiAgents/AiAgentTools.js"
import { AiAgentToolTests } from "../../services/aiAgents/AiAgentToolTests.js"
import { Api } from "../Api.js"

/** An agent's tools and their test; the `ById` forms name the tool in the body or the query and do the same. */
export const AiAgentToolsHttpLive = HttpApiBuilder.group(Api, "aiAgentTools", (handlers) =>
  Effect.gen(function*() {
    const tools = yield* AiAgentTools
    const tests = yield* AiAgentToolTests

    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tools.list(principal, path.slug, urlParams)))
      .handle("create", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* tools.create(
            yield* CurrentPrincipal,
            path.slug,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tools.get(principal, path.slug, path.tid)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* tools.update(
            yield* CurrentPrincipal,
            path.slug,
            path.tid,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("delete", ({ headers, path }) =>
        Effect.gen(function*() {
          yield* tools.delete(yield* CurrentPrincipal, path.slug, path.tid, headers["if-match"], yield* CurrentOrigin)
        }))
      .handle("updateById", ({ headers, path, payload: { id, ...patch } }) =>
        Effect.gen(function*() {
          return yield* tools.update(
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
          yield* tools.delete(
            yield* CurrentPrincipal,
            path.slug,
            urlParams.id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle(
        "test",
        ({ path, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            tests.test(principal, path.slug, path.tid, payload.input))
      )
  }))
