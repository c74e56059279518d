import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import type { AiAgentGuardrailId } from "../../domain/aiAgents/Ids.js"
import { AiAgentGuardrails } from "../../services/aiAgents/AiAgentGuardrails.js"
import { Api } from "../Api.js"
import { draftCollectionHandlers } from "./draftCollectionHandlers.js"

/** An agent's guardrails; the `ById` forms name the guardrail in the body or the query and do the same. */
export const AiAgentGuardrailsHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentGuardrails",
  (handlers) =>
    Effect.gen(function*() {
      const guardrails = draftCollectionHandlers(
        yield* AiAgentGuardrails,
        (path: { readonly slug: string; readonly guardrail_id: AiAgentGuardrailId }) => path.guardrail_id
      )
      return handlers
        .handle("list", guardrails.list)
        .handle("create", guardrails.create)
        .handle("get", guardrails.get)
        .handle("update", guardrails.update)
        .handle("delete", guardrails.delete)
        .handle("updateById", guardrails.updateById)
        .handle("deleteById", guardrails.deleteById)
    })
)
