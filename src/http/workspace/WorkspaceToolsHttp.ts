import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { WorkspaceTools } from "../../services/workspace/WorkspaceTools.js"
import { WorkspaceToolTests } from "../../services/workspace/WorkspaceToolTests.js"
import { Api } from "../Api.js"

export const WorkspaceToolsHttpLive = HttpApiBuilder.group(Api, "workspaceTools", (handlers) =>
  Effect.gen(function*() {
    const tools = yield* WorkspaceTools
    const tests = yield* WorkspaceToolTests

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => tools.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* tools.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => tools.get(principal, path.tool_id)))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          return yield* tools.update(yield* CurrentPrincipal, path.tool_id, payload, yield* CurrentOrigin)
        }))
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function*() {
          yield* tools.delete(yield* CurrentPrincipal, path.tool_id, urlParams.force, yield* CurrentOrigin)
        }))
      .handle("test", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          tests.test(principal, path.tool_id, payload.input)))
  }))
