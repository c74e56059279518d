import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { NotImplemented } from "../../domain/HttpErrors.js"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { AgentTurns } from "../../services/aiAgents/AgentTurns.js"
import { PublicAgentGate } from "../../services/aiAgents/PublicAgentGate.js"
import { Api } from "../Api.js"

/** Public turns of a live agent: the gate (token, origin, rate limits), then the conversation's entity. */
export const PublicAiAgentsHttpLive = HttpApiBuilder.group(Api, "publicAiAgents", (handlers) =>
  Effect.gen(function*() {
    const gate = yield* PublicAgentGate
    const turns = yield* AgentTurns

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
        if (urlParams.stream) {
          return yield* new NotImplemented({
            route: "POST /v1/public/ai-agents/{public_token}/turn?stream=true",
            message: "Streaming public turns are not implemented yet; omit stream for the JSON answer"
          })
        }
        return yield* turns.publicTurn(
          { workspaceId: live.agent.workspaceId, agentId: live.agent.id, version: live.version },
          payload,
          headers["idempotency-key"]
        )
      }))
  }))
