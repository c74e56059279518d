import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Workflows } from "../../services/workflows/Workflows.js"
import { Api } from "../Api.js"

/** Graph workflows: the draft, validate-publish, publish, versions and restore. */
export const WorkflowsHttpLive = HttpApiBuilder.group(Api, "workflows", (handlers) =>
  Effect.gen(function*() {
    const workflows = yield* Workflows

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => workflows.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* workflows.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => workflows.get(principal, path.id)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* workflows.update(
            yield* CurrentPrincipal,
            path.id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* workflows.delete(yield* CurrentPrincipal, path.id, yield* CurrentOrigin)
        }))
      .handle("replaceGraph", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* workflows.replaceGraph(
            yield* CurrentPrincipal,
            path.id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("validatePublish", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          workflows.validatePublish(principal, path.id)))
      .handle("publish", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* workflows.publish(
            yield* CurrentPrincipal,
            path.id,
            headers["if-match"],
            payload.note,
            yield* CurrentOrigin
          )
        }))
      .handle("listVersions", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          workflows.listVersions(principal, path.id, urlParams)))
      .handle("restoreVersion", ({ headers, path }) =>
        Effect.gen(function*() {
          return yield* workflows.restore(
            yield* CurrentPrincipal,
            path.id,
            path.version_id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
  }))
