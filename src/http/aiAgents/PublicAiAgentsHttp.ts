import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { AgentTurns } from "../../services/aiAgents/AgentTurns.js"
import { AgentTurnStreams } from "../../services/aiAgents/AgentTurnStreams.js"
import { PublicAgentGate } from "../../services/aiAgents/PublicAgentGate.js"
import { Api } from "../Api.js"
import { eventStream } from "../EventStreamResponse.js"

/** Public turns of a live agent: the gate (token, origin, rate limits), then the conversation's entity. */
export const PublicAiAgentsHttpLive = HttpApiBuilder.group(Api, "publicAiAgents", (handlers) =>
  Effect.gen(function*() {
    const gate = yield* PublicAgentGate
    const turns = yield* AgentTurns
    const streams = yield* AgentTurnStreams

    return handlers.handle("turn", ({ headers, path, payload, urlParams }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { ipAddress } = yield* CurrentOrigin
        const live = yield* gate.admit({
          token: path.public_token,
          origin: request.headers["origin"],
          endUserId: payload.endUserId,
          ipAddress
        })
        const agent = { workspaceId: live.agent.workspaceId, agentId: live.agent.id, version: live.version }
        return urlParams.stream
          ? eventStream(yield* streams.publicTurn(headers["last-event-id"], agent, payload, headers["idempotency-key"]))
          : yield* turns.publicTurn(agent, payload, headers["idempotency-key"])
      }))
  }))
