import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentTurns } from "../../services/aiAgents/AgentTurns.js"
import { AgentTurnStreams } from "../../services/aiAgents/AgentTurnStreams.js"
import { AiAgents } from "../../services/aiAgents/AiAgents.js"
import { Api } from "../Api.js"
import { eventStream } from "../EventStreamResponse.js"

export const AiAgentsHttpLive = HttpApiBuilder.group(Api, "aiAgents", (handlers) =>
  Effect.gen(function*() {
    const agents = yield* AiAgents
    const turns = yield* AgentTurns
    const streams = yield* AgentTurnStreams

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
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const key = headers["idempotency-key"]
          if (!urlParams.stream) {
            return yield* turns.playground(principal, path.slug, payload, key)
          }
          return eventStream(
            "messages" in payload
              ? yield* streams.transcript(principal, path.slug, payload, key)
              : yield* streams.playground(headers["last-event-id"], principal, path.slug, payload, key)
          )
        }))
  }))
