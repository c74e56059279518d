import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CurrentOrigin } from "../../domain/identity/Origin.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { AgentLlm } from "../../services/settings/AgentLlm.js"
import { AgentLlmTests } from "../../services/settings/AgentLlmTests.js"
import { AgentOps } from "../../services/settings/AgentOps.js"
import { LlmInForce } from "../../services/settings/LlmInForce.js"
import { Api } from "../Api.js"

export const AgentSettingsHttpLive = HttpApiBuilder.group(Api, "agentSettings", (handlers) =>
  Effect.gen(function*() {
    const ops = yield* AgentOps
    const llm = yield* AgentLlm
    const tests = yield* AgentLlmTests
    const inForce = yield* LlmInForce
    const llmInfo = () => Effect.flatMap(CurrentPrincipal, (principal) => inForce.info(principal.workspaceId))

    return handlers
      .handle("getAgentOps", () => Effect.flatMap(CurrentPrincipal, (principal) => ops.get(principal.workspaceId)))
      .handle("updateAgentOps", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* ops.update(principal, principal.workspaceId, payload, yield* CurrentOrigin)
        }))
      .handle("getAgentLlm", () => Effect.flatMap(CurrentPrincipal, (principal) => llm.get(principal.workspaceId)))
      .handle("updateAgentLlm", ({ payload }) =>
        Effect.gen(function*() {
          return yield* llm.update(yield* CurrentPrincipal, payload, yield* CurrentOrigin)
        }))
      .handle("testAgentLlm", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => tests.run(principal, payload)))
      .handle("agentLlmInfo", llmInfo)
      .handle("llmConfig", llmInfo)
  }))
