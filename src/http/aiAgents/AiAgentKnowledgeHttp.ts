import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import type { AiAgentKnowledgeId } from "../../domain/aiAgents/Ids.js"
import { AiAgentKnowledge } from "../../services/aiAgents/AiAgentKnowledge.js"
import { Api } from "../Api.js"
import { draftCollectionHandlers } from "./draftCollectionHandlers.js"

/** An agent's knowledge documents; the `ById` forms name the document in the body or the query and do the same. */
export const AiAgentKnowledgeHttpLive = HttpApiBuilder.group(
  Api,
  "aiAgentKnowledge",
  (handlers) =>
    Effect.gen(function*() {
      const knowledge = draftCollectionHandlers(
        yield* AiAgentKnowledge,
        (path: { readonly slug: string; readonly knowledge_id: AiAgentKnowledgeId }) => path.knowledge_id
      )
      return handlers
        .handle("list", knowledge.list)
        .handle("create", knowledge.create)
        .handle("get", knowledge.get)
        .handle("update", knowledge.update)
        .handle("delete", knowledge.delete)
        .handle("updateById", knowledge.updateById)
        .handle("deleteById", knowledge.deleteById)
    })
)
