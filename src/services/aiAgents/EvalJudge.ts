/**
 * The judge of `llm-rubric` expectations: the workspace's configured model
 * (its LLM in force and fallback, as `LlmInForce` resolves them: the
 * workspace's own setting, the server's `PARLEY_LLM_*`, or the offline
 * provider, which tests script), asked for a JSON `{score, reason}`
 * (`RubricVerdict.ts`). Its tokens are metered as any model call's. A judge
 * that cannot be reached fails with `EvalJudgeFailed`; what it answers is
 * read by the caller.
 */
import { AiError } from "@effect/ai"
import { Data, Effect, Option, Redacted } from "effect"
import type { TokenUsage } from "../../domain/aiAgents/AgentTurn.js"
import { judgePrompt } from "../../domain/aiAgents/evals/RubricVerdict.js"
import type { PlaygroundMessage } from "../../domain/aiAgents/Playground.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { fromAiError } from "../../providers/llm/LlmCallFailure.js"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { UsageMeter } from "../workspace/UsageMeter.js"

/** The judge model could not be called or failed to answer. */
export class EvalJudgeFailed extends Data.TaggedError("EvalJudgeFailed")<{ readonly message: string }> {}

/** What the judge answered, and what it cost. */
export interface JudgeAnswer {
  readonly text: string
  readonly usage: TokenUsage
}

export class EvalJudge extends Effect.Service<EvalJudge>()("parley/services/aiAgents/EvalJudge", {
  effect: Effect.gen(function*() {
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const usage = yield* UsageMeter

    /** The judge's answer on one reply against one rubric. */
    const judge = Effect.fn("EvalJudge.judge")(function*(
      workspaceId: WorkspaceId,
      rubric: string,
      conversation: ReadonlyArray<typeof PlaygroundMessage.Type>,
      reply: string
    ) {
      const { fallback, primary } = yield* inForce.resolve(workspaceId)
      const use = { workspaceId, actor: { kind: "system" as const } }
      const primaryTarget = yield* inForce.target(primary, use)
      const fallbackTarget = fallback === null ? null : yield* inForce.target(fallback, use)
      const secrets = [primaryTarget, fallbackTarget].flatMap((target) =>
        target === null ? [] : Option.toArray(Option.map(target.apiKey, Redacted.value))
      )
      const model = yield* clients.languageModel(primaryTarget, fallbackTarget)
      const { system, user } = judgePrompt(rubric, conversation, reply)
      const response = yield* model.generateText({
        prompt: [{ role: "system", content: system }, { role: "user", content: user }]
      }).pipe(
        Effect.mapError((error) =>
          fromAiError(
            AiError.isAiError(error)
              ? error
              : new AiError.UnknownError({ module: "EvalJudge", method: "judge", cause: error }),
            secrets
          )
        )
      )
      const tokens = {
        inputTokens: response.usage.inputTokens ?? 0,
        outputTokens: response.usage.outputTokens ?? 0
      }
      yield* usage.record({
        workspaceId,
        provider: primary.connection.provider,
        model: primary.connection.model,
        ...tokens
      })
      return { text: response.text, usage: { ...tokens, costUsd: null } } satisfies JudgeAnswer
    }, (effect) =>
      Effect.catchAll(
        effect,
        (failure) =>
          Effect.fail(
            new EvalJudgeFailed({
              message: `The judge model failed: ${"message" in failure ? String(failure.message) : String(failure)}`
            })
          )
      ))

    return { judge } as const
  })
}) {}
