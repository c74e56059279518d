/**
 * The input guardrails' verdict on a user's message, asking the agent's
 * model first for its `blocked-topics` rules with `detection: llm`
 * (`LlmTopics`): the agent's configured model (as `AgentRuntime` resolves
 * it, with its fallback), at temperature 0, one call per such rule, each
 * metered as any model call's tokens. A model that cannot be called, fails,
 * takes longer than `ANSWER_WITHIN`, or answers something unreadable gives
 * an `Unanswered` answer, which the rule turns into a warning or, with
 * `failClosed`, a hit (`BlockedTopics`); the verdict never fails.
 *
 * A turn is judged once, when it is accepted, and stores the verdict
 * (`AgentTurnRequest.input`), so a resumed turn never asks again.
 *
 * `warm` trains the classifiers of rules by examples that this node has not
 * trained yet, in time slices that leave the node responsive, so the
 * (synchronous) rules find them ready: `judgeInput` warms before judging,
 * and `AgentRuntime.prepare` before a reply meets the output rules.
 */
import { Duration, Effect } from "effect"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import { checkText, type SnapshotGuardrail, textGuardrails } from "../../domain/aiAgents/guardrails/GuardrailCheck.js"
import { readTopicAnswer, type TopicAnswer, topicPrompt } from "../../domain/aiAgents/guardrails/LlmTopics.js"
import { topicTraining } from "../../domain/aiAgents/guardrails/TopicClassifier.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { runInSlices } from "../nlu/Background.js"
import { LlmInForce } from "../settings/LlmInForce.js"
import { UsageMeter } from "../workspace/UsageMeter.js"

/** How long the model has to answer before the rule counts it as unanswered. */
export const ANSWER_WITHIN = Duration.seconds(20)

/** Enough for `{"topic": "<a name of up to 200 characters>"}`. */
const MAX_ANSWER_TOKENS = 200

const unanswered = (reason: string): TopicAnswer => ({ _tag: "Unanswered", reason })

export class TopicJudge extends Effect.Service<TopicJudge>()("parley/services/aiAgents/TopicJudge", {
  effect: Effect.gen(function*() {
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const usage = yield* UsageMeter

    /** The model's answers for the input `llm` topic rules of `snapshot` on `message`, by guardrail id. */
    const answers = Effect.fn("TopicJudge.answers")(
      function*(workspaceId: WorkspaceId, snapshot: AiAgentSnapshot, message: string) {
        const rules = textGuardrails(snapshot.guardrails, "input").flatMap((guardrail) =>
          guardrail.rule.kind === "blocked-topics" && guardrail.rule.detection === "llm"
            ? [{ id: guardrail.id, topics: guardrail.rule.topics }]
            : []
        )
        const found = new Map<string, TopicAnswer>()
        if (rules.length === 0) return found
        const request = { ...snapshot.modelSettings, temperature: 0, maxOutputTokens: MAX_ANSWER_TOKENS }
        const called = yield* inForce.targets(workspaceId, request, { kind: "system" }).pipe(
          Effect.flatMap(({ fallback, primary }) =>
            Effect.map(clients.languageModel(primary, fallback), (model) => ({ model, primary }))
          ),
          Effect.either
        )
        if (called._tag === "Left") {
          for (const rule of rules) found.set(rule.id, unanswered(`the model cannot be called: ${called.left.message}`))
          return found
        }
        const { model, primary } = called.right
        yield* Effect.forEach(rules, (rule) => {
          const { system, user } = topicPrompt(rule.topics, message)
          return model.generateText({ prompt: [{ role: "system", content: system }, { role: "user", content: user }] })
            .pipe(
              Effect.tap((response) =>
                usage.record({
                  workspaceId,
                  provider: primary.connection.provider,
                  model: primary.connection.model,
                  inputTokens: response.usage.inputTokens ?? 0,
                  outputTokens: response.usage.outputTokens ?? 0
                })
              ),
              Effect.map((response) => readTopicAnswer(response.text, rule.topics)),
              Effect.timeoutFail({ duration: ANSWER_WITHIN, onTimeout: () => "timed out" as const }),
              Effect.catchAll((failure) =>
                Effect.succeed(
                  unanswered(
                    failure === "timed out"
                      ? `the model did not answer within ${Duration.format(ANSWER_WITHIN)}`
                      : "the model call failed"
                  )
                )
              ),
              Effect.map((answer) => void found.set(rule.id, answer))
            )
        }, { concurrency: 4, discard: true })
        return found
      }
    )

    /** Trains, in slices, the classifiers of the enabled rules by examples that this node has not trained yet. */
    const warm = Effect.fn("TopicJudge.warm")(function*(guardrails: ReadonlyArray<SnapshotGuardrail>) {
      for (const guardrail of guardrails) {
        const rule = guardrail.rule
        if (!guardrail.enabled || rule.kind !== "blocked-topics" || rule.detection !== "examples") continue
        const training = topicTraining(rule.topics)
        if (training !== undefined) yield* runInSlices(training.step)
      }
    })

    /** The input guardrails' verdict on `message` under `snapshot`, the model asked first where a rule says so. */
    const judgeInput = Effect.fn("TopicJudge.judgeInput")(
      function*(workspaceId: WorkspaceId, snapshot: AiAgentSnapshot, message: string) {
        yield* warm(snapshot.guardrails)
        const topicAnswers = yield* answers(workspaceId, snapshot, message)
        return checkText(snapshot.guardrails, "input", message, { before: "", shownLength: 0, topicAnswers })
      }
    )

    return { answers, warm, judgeInput } as const
  })
}) {}
