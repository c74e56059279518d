import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { WorkflowSimulator } from "../../services/workflows/WorkflowSimulator.js"
import { Api } from "../Api.js"

/** The workflow simulator: sessions on a workflow's draft, their turns and their history. */
export const WorkflowSimulatorHttpLive = HttpApiBuilder.group(
  Api,
  "workflowSimulator",
  (handlers) =>
    Effect.gen(function*() {
      const simulator = yield* WorkflowSimulator

      return handlers
        .handle(
          "startSession",
          ({ path, payload }) => Effect.flatMap(CurrentPrincipal, (who) => simulator.start(who, path.id, payload))
        )
        .handle(
          "sendTurn",
          ({ headers, path, payload }) =>
            Effect.flatMap(CurrentPrincipal, (who) => simulator.turn(who, path.id, payload, headers["idempotency-key"]))
        )
        .handle(
          "listSessions",
          ({ path, urlParams }) => Effect.flatMap(CurrentPrincipal, (who) => simulator.list(who, path.id, urlParams))
        )
    })
)
