/**
 * The knowledge calls the integration tests make through an account's typed
 * client: create a document of the agent (the body decoded as the route
 * decodes it), and wait until its indexing has settled (`ready` or `failed`).
 */
import { Effect, Schema } from "effect"
import type { AiAgentKnowledgeId } from "../../../src/domain/aiAgents/Ids.js"
import { AiAgentKnowledgeCreate } from "../../../src/domain/aiAgents/Knowledge.js"
import type { clientOf } from "../../support/Members.js"

type Client = Effect.Effect.Success<ReturnType<typeof clientOf>>

/** `create` and `settled` for the agent `slug` (`settled` polls every 50 ms, `attempts` times at most). */
export const knowledgeDocuments = (client: Client, slug: string, attempts = 400) => {
  const path = { slug }
  const create = (body: Record<string, unknown>) =>
    client.aiAgentKnowledge.create({
      path,
      payload: Schema.decodeUnknownSync(AiAgentKnowledgeCreate)(body),
      headers: {}
    })
  const settled = (id: AiAgentKnowledgeId) =>
    Effect.gen(function*() {
      for (let attempt = 0; attempt < attempts; attempt++) {
        const found = yield* client.aiAgentKnowledge.get({ path: { ...path, knowledge_id: id } })
        if (found.status === "ready" || found.status === "failed") return found
        yield* Effect.sleep("50 millis")
      }
      return yield* Effect.die(`document ${id} was never indexed`)
    })
  return { path, create, settled }
}
