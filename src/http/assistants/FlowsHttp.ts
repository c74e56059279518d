import { HttpApiBuilder, type HttpApiEndpoint } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Flows } from "../../services/assistants/Flows.js"
import { FlowExports } from "../../services/imports/FlowExports.js"
import { Api } from "../Api.js"
import { notImplemented } from "../NotImplementedHttp.js"
import { RequestOrigin } from "../RequestOrigin.js"
import { FlowsApi } from "./FlowsApi.js"

/** The draft flow: read, replace and export are built; node and edge edits, analysis and repair answer 501. */
export const FlowsHttpLive = HttpApiBuilder.group(Api, "flows", (handlers) =>
  Effect.gen(function*() {
    const flows = yield* Flows
    const origins = yield* RequestOrigin
    const endpoints = FlowsApi.endpoints as unknown as Record<string, HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>

    return handlers
      .handle("getFlow", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => flows.get(principal.workspaceId, path.agent_id)))
      .handle("replaceFlow", ({ headers, path, payload, request }) =>
        Effect.gen(function*() {
          return yield* flows.replace(
            yield* CurrentPrincipal,
            path.agent_id,
            payload,
            headers["if-match"],
            yield* origins.of(request)
          )
        }))
      .handle("createNode", notImplemented(endpoints["createNode"]!))
      .handle("updateNode", notImplemented(endpoints["updateNode"]!))
      .handle("deleteNode", notImplemented(endpoints["deleteNode"]!))
      .handle("createEdge", notImplemented(endpoints["createEdge"]!))
      .handle("deleteEdge", notImplemented(endpoints["deleteEdge"]!))
      .handle("getAnalysis", notImplemented(endpoints["getAnalysis"]!))
      .handle("repairNode", notImplemented(endpoints["repairNode"]!))
      .handle("exportFlow", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.flatMap(FlowExports, (exports) => exports.exportFlow(principal.workspaceId, path.agent_id, urlParams.format))))
  }))
