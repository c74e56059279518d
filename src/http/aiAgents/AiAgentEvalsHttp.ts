import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentEvals } from "../../services/aiAgents/AiAgentEvals.js"
import { Api } from "../Api.js"

/** An agent's eval cases and runs; the `ById` forms name the case in the body or the query and do the same. */
export const AiAgentEvalsHttpLive = HttpApiBuilder.group(Api, "aiAgentEvals", (handlers) =>
  Effect.gen(function*() {
    const evals = yield* AiAgentEvals

    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          evals.list(principal, path.slug, urlParams)))
      .handle("create", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* evals.create(yield* CurrentPrincipal, path.slug, payload, yield* CurrentOrigin)
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          evals.get(principal, path.slug, path.eid)))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* evals.update(yield* CurrentPrincipal, path.slug, path.eid, payload, yield* CurrentOrigin)
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* evals.delete(yield* CurrentPrincipal, path.slug, path.eid, yield* CurrentOrigin)
        }))
      .handle("updateById", ({ path, payload: { id, ...patch } }) =>
        Effect.gen(function*() {
          return yield* evals.update(yield* CurrentPrincipal, path.slug, id, patch, yield* CurrentOrigin)
        }))
      .handle("deleteById", ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* evals.delete(yield* CurrentPrincipal, path.slug, urlParams.id, yield* CurrentOrigin)
        }))
      .handle("run", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          evals.run(principal, path.slug, path.eid, payload)))
      .handle("runSuite", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          evals.runSuite(principal, path.slug, payload)))
      .handle("listEvalRuns", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          evals.listVersionRuns(principal, path.slug, path.vid, urlParams)))
  }))
