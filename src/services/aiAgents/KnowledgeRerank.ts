/**
 * The rerank of `knowledge_search` (its `rerank` setting): the agent's own
 * model (its targets as the turn prepared them, fallback included) orders
 * the best passages of the fused ranking for the query (`Rerank.ts` writes
 * the prompt and reads the answer). Its tokens are metered as any model
 * call's. A model that fails or answers what cannot be read leaves the fused
 * order (logged): a rerank never fails the search, nor the turn.
 */
import { AiError } from "@effect/ai"
import { Effect } from "effect"
import type { KnowledgeCitation } from "../../domain/aiAgents/knowledge/KnowledgeCitation.js"
import { parseRerank, RERANK_INSTRUCTIONS, rerankPrompt } from "../../domain/aiAgents/knowledge/Rerank.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { fromAiError } from "../../providers/llm/LlmCallFailure.js"
import { LlmClients, type LlmTarget } from "../../providers/llm/LlmClients.js"
import { UsageMeter } from "../workspace/UsageMeter.js"

/** The model a rerank calls: the agent's, as its turn calls it. */
export interface RerankModel {
  readonly workspaceId: WorkspaceId
  readonly primary: LlmTarget
  readonly fallback: LlmTarget | null
  /** The keys' values, kept out of what is logged. */
  readonly secrets: ReadonlyArray<string>
}

export class KnowledgeRerank extends Effect.Service<KnowledgeRerank>()("parley/services/aiAgents/KnowledgeRerank", {
  effect: Effect.gen(function*() {
    const clients = yield* LlmClients
    const usage = yield* UsageMeter

    /** The passages in the order the model gives them; their own order when it gives none. */
    const rerank = Effect.fn("KnowledgeRerank.rerank")(function*(
      model: RerankModel,
      query: string,
      passages: ReadonlyArray<KnowledgeCitation>
    ) {
      const language = yield* clients.languageModel(model.primary, model.fallback)
      const response = yield* language.generateText({
        prompt: [
          { role: "system", content: RERANK_INSTRUCTIONS },
          { role: "user", content: rerankPrompt(query, passages) }
        ]
      }).pipe(
        Effect.mapError((error) =>
          fromAiError(
            AiError.isAiError(error)
              ? error
              : new AiError.UnknownError({ module: "KnowledgeRerank", method: "rerank", cause: error }),
            model.secrets
          )
        )
      )
      yield* usage.record({
        workspaceId: model.workspaceId,
        provider: model.primary.connection.provider,
        model: model.primary.connection.model,
        inputTokens: response.usage.inputTokens ?? 0,
        outputTokens: response.usage.outputTokens ?? 0
      })
      const order = parseRerank(response.text, passages.length)
      if (order === undefined) {
        yield* Effect.logWarning("The rerank answer could not be read; the fused order stands")
        return passages
      }
      return order.map((i) => passages[i]!)
    }, (effect, _model, _query, passages) =>
      Effect.catchAll(effect, (failure) =>
        Effect.as(
          Effect.logWarning("The rerank model failed; the fused order stands").pipe(
            Effect.annotateLogs({ reason: failure.message })
          ),
          passages
        )))

    return { rerank } as const
  })
}) {}
