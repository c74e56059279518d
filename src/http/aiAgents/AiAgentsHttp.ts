import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { NotImplemented, UpstreamFailed } from "../../domain/HttpErrors.js"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentTurns } from "../../services/aiAgents/AgentTurns.js"
import { AiAgents } from "../../services/aiAgents/AiAgents.js"
import { Api } from "../Api.js"

export const AiAgentsHttpLive = HttpApiBuilder.group(Api, "aiAgents", (handlers) =>
  Effect.gen(function*() {
    const agents = yield* AiAgents
    const turns = yield* AgentTurns

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => agents.list(principal, urlParams)))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          return yield* agents.create(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("get", ({ path }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => agents.get(principal, path.slug)))
      .handle("update", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          return yield* agents.update(
            yield* CurrentPrincipal,
            path.slug,
            payload,
            headers["if-match"],
            yield* CurrentOrigin
          )
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          yield* agents.delete(yield* CurrentPrincipal, path.slug, yield* CurrentOrigin)
        }))
      .handle("deriveTasks", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          agents.deriveForWizard(principal, payload)))
      .handle("deriveAgentTasks", ({ path, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          agents.deriveTasks(principal, path.slug, payload)))
      .handle("playground", ({ headers, path, payload, urlParams }) =>
        urlParams.stream
          ? Effect.fail(
            new NotImplemented({
              route: "POST /v1/ai-agents/{slug}/playground?stream=true",
              message: "Streaming playground runs are not implemented yet; omit stream for the JSON answer"
            })
          )
          : Effect.flatMap(
            CurrentPrincipal,
            (principal) =>
              turns.playground(principal, path.slug, payload, headers["idempotency-key"]).pipe(
                Effect.catchTag(
                  "AgentTurnUpstreamFailed",
                  (failure) =>
                    Effect.fail(new UpstreamFailed({ provider: failure.provider, message: failure.message }))
                )
              )
          ))
  }))
