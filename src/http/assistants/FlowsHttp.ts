import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { FlowAnalyses } from "../../services/assistants/FlowAnalyses.js"
import { FlowEdits } from "../../services/assistants/FlowEdits.js"
import { Flows } from "../../services/assistants/Flows.js"
import { FlowExports } from "../../services/imports/FlowExports.js"
import { Api } from "../Api.js"

/** The draft flow: read, replace, node and edge edits, analysis, repair and export. */
export const FlowsHttpLive = HttpApiBuilder.group(Api, "flows", (handlers) =>
  Effect.gen(function*() {
    const flows = yield* Flows
    const edits = yield* FlowEdits
    const analyses = yield* FlowAnalyses

    return handlers
      .handle("getFlow", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => flows.get(principal.workspaceId, path.agent_id)))
      .handle("replaceFlow", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* flows.replace(
            yield* CurrentPrincipal,
            path.agent_id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("createNode", ({ headers, payload, path }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.createNode(
            principal,
            path.agent_id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("updateNode", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const origin = yield* CurrentOrigin
          return yield* edits.updateNode(principal, path.agent_id, path.node_id, payload, headers["if-match"], origin)
        }))
      .handle("deleteNode", ({ headers, path }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.deleteNode(
            principal,
            path.agent_id,
            path.node_id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("createEdge", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.createEdge(
            principal,
            path.agent_id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("deleteEdge", ({ headers, path }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.deleteEdge(
            principal,
            path.agent_id,
            path.edge_id,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("getAnalysis", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          analyses.analyse(principal.workspaceId, path.agent_id)))
      .handle("repairNode", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.repair(principal, path.agent_id, payload, headers["if-match"], yield* CurrentOrigin)
        }))
      .handle("repairFlow", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* edits.repairFlow(
            principal,
            path.agent_id,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("exportFlow", ({ path, urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.flatMap(FlowExports, (exports) =>
            exports.exportFlow(principal.workspaceId, path.agent_id, urlParams.format))))
  }))
