import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AiAgentTasks } from "../../services/aiAgents/AiAgentTasks.js"
import { Api } from "../Api.js"

/** An agent's tasks; the `ById` forms name the task in the body or the query and do the same. */
export const AiAgentTasksHttpLive = HttpApiBuilder.group(Api, "aiAgentTasks", (handlers) =>
  Effect.gen(function*() {
    const tasks = yield* AiAgentTasks

    return handlers
      .handle("list", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tasks.list(principal, path.slug, urlParams)))
      .handle("create", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* tasks.create(
            yield* CurrentPrincipal,
            path.slug,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tasks.get(principal, path.slug, path.task_id)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* tasks.update(
            yield* CurrentPrincipal,
            path.slug,
            path.task_id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("delete", ({ headers, path }) =>
        Effect.gen(function*() {
          yield* tasks.delete(
            yield* CurrentPrincipal,
            path.slug,
            path.task_id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("updateById", ({ headers, path, payload: { id, ...patch } }) =>
        Effect.gen(function*() {
          return yield* tasks.update(
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
          yield* tasks.delete(
            yield* CurrentPrincipal,
            path.slug,
            urlParams.id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
  }))
