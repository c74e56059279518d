/**
 * Running eval cases against what an agent runs (a version's snapshot or the
 * draft's) and storing the run. Each case is a stateless transcript run
 * (`AgentTranscripts`): its earlier messages are history, its last user
 * message the turn, its tool mocks answer the tools they name. The reply and
 * tool calls are scored (`domain/aiAgents/evals`), `llm-rubric` by the judge.
 *
 * A case the model could not answer (the provider failed after its retries
 * and fallback, the agent's model cannot be resolved) or the judge could not
 * score is an `error` result scoring 0, never a failure of the request. A
 * tool that fails is what the model reads, as in any turn: the case is judged
 * on the reply. Usage counts the agent's tokens and the judge's.
 *
 * A run is stored once, when every case has finished: a request interrupted
 * before (its client gone, the handler's time-out) stores nothing, so no
 * stored run lacks cases. `enabledSuite` is the suite both a client's suite
 * run and the publish gate run.
 */
import { Clock, Effect } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { TokenUsage } from "../../domain/aiAgents/AgentTurn.js"
import type { AiAgent } from "../../domain/aiAgents/AiAgent.js"
import type { AiAgentSnapshot } from "../../domain/aiAgents/AiAgentSnapshot.js"
import type { AiAgentEval } from "../../domain/aiAgents/Eval.js"
import type { EvalCaseResult, EvalExpectationResult, EvalRunTrigger } from "../../domain/aiAgents/EvalRun.js"
import { addUsage, caseScore, runScore, runStatus } from "../../domain/aiAgents/evals/CaseScore.js"
import { scoreExpectation } from "../../domain/aiAgents/evals/ExpectationScoring.js"
import { rubricResult } from "../../domain/aiAgents/evals/RubricVerdict.js"
import { AiAgentEvalSuiteNotRunnable, MAX_SUITE_CASES } from "../../domain/aiAgents/EvalSuite.js"
import type { AiAgentEvalRunId, AiAgentId, AiAgentVersionNumber } from "../../domain/aiAgents/Ids.js"
import type { ResolvedModel } from "../../domain/aiAgents/ModelSettings.js"
import { excerpt } from "../../domain/Excerpt.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { JsonValue } from "../../domain/Json.js"
import type { Revision } from "../../domain/Revision.js"
import { AiAgentEvalRepo } from "../../persistence/aiAgents/AiAgentEvalRepo.js"
import { AiAgentEvalRunRepo } from "../../persistence/aiAgents/AiAgentEvalRunRepo.js"
import { AgentTranscripts, type TranscriptOutcome } from "./AgentTranscripts.js"
import { EvalJudge } from "./EvalJudge.js"

/** What a run runs against: a version's snapshot, or the draft's at a revision. */
export interface EvalTarget {
  readonly workspaceId: WorkspaceId
  readonly agentId: AiAgentId
  readonly snapshot: AiAgentSnapshot
  readonly version: AiAgentVersionNumber | null
  readonly draftRevision: Revision | null
}

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, costUsd: null }

/** How many cases of a suite run at once. */
const CASES_AT_ONCE = 4

/** A case's mocks as the runtime's hook: the output of the tool named, if mocked. */
const mocksOf = (toolMocks: AiAgentEval["toolMocks"]) => {
  const outputs = new Map<string, JsonValue>(toolMocks.map((mock) => [mock.tool, mock.output]))
  return (name: string) => outputs.get(name)
}

export class AgentEvalRunner extends Effect.Service<AgentEvalRunner>()("parley/services/aiAgents/AgentEvalRunner", {
  effect: Effect.gen(function*() {
    const transcripts = yield* AgentTranscripts
    const judge = yield* EvalJudge
    const runs = yield* AiAgentEvalRunRepo
    const evals = yield* AiAgentEvalRepo

    const errorResult = (
      evalCase: AiAgentEval,
      message: string,
      ran: TranscriptOutcome | undefined,
      latencyMs: number
    ): EvalCaseResult => ({
      evalId: evalCase.id,
      name: evalCase.name,
      weight: evalCase.weight,
      status: "error",
      score: 0,
      reply: ran === undefined ? null : excerpt(ran.reply, 16_000),
      toolCalls: ran?.toolCalls ?? [],
      guardrailEvents: ran?.guardrailEvents ?? [],
      finishReason: ran?.finishReason ?? null,
      expectations: [],
      usage: ran?.usage ?? NO_USAGE,
      latencyMs,
      error: excerpt(message, 2000)
    })

    /** One case against the target, judged; its model alongside (null when none answered). */
    const runCase = (target: EvalTarget, evalCase: AiAgentEval) =>
      Effect.gen(function*() {
        const started = yield* Clock.currentTimeMillis
        const elapsed = Effect.map(Clock.currentTimeMillis, (now) => Math.max(0, Math.round(now - started)))
        const answered = yield* Effect.either(transcripts.run({
          workspaceId: target.workspaceId,
          agentId: target.agentId,
          snapshot: target.snapshot,
          messages: evalCase.conversation,
          variables: evalCase.variables,
          mock: mocksOf(evalCase.toolMocks)
        }))
        if (answered._tag === "Left") {
          const result = errorResult(evalCase, `The model failed: ${answered.left.message}`, undefined, yield* elapsed)
          return { result, model: null }
        }
        const ran = answered.right
        const turn = { reply: ran.reply, toolCalls: ran.toolCalls }
        let usage = ran.usage
        const expectations: Array<EvalExpectationResult> = []
        for (const [index, expectation] of evalCase.expectations.entries()) {
          const scored = scoreExpectation(index, expectation, turn)
          if (scored !== undefined) {
            expectations.push(scored)
            continue
          }
          if (expectation.kind !== "llm-rubric") continue
          const verdict = yield* Effect.either(
            judge.judge(target.workspaceId, expectation.rubric, evalCase.conversation, ran.reply)
          )
          if (verdict._tag === "Left") {
            const result = errorResult(evalCase, verdict.left.message, { ...ran, usage }, yield* elapsed)
            return { result, model: ran.model }
          }
          usage = addUsage(usage, verdict.right.usage)
          expectations.push(rubricResult(index, expectation.passingScore, verdict.right.text))
        }
        const { score, status } = caseScore(expectations)
        const result: EvalCaseResult = {
          evalId: evalCase.id,
          name: evalCase.name,
          weight: evalCase.weight,
          status,
          score,
          reply: excerpt(ran.reply, 16_000),
          toolCalls: ran.toolCalls,
          guardrailEvents: ran.guardrailEvents,
          finishReason: ran.finishReason,
          expectations,
          usage,
          latencyMs: yield* elapsed,
          error: null
        }
        return { result, model: ran.model as typeof ResolvedModel.Type | null }
      }).pipe(Effect.withSpan("AgentEvalRunner.runCase", { attributes: { evalId: evalCase.id } }))

    /** Run the cases against the target, in order, and store the finished run. */
    const run = Effect.fn("AgentEvalRunner.run")(function*(
      target: EvalTarget,
      cases: ReadonlyArray<AiAgentEval>,
      trigger: EvalRunTrigger
    ) {
      const startedAt = yield* Clock.currentTimeMillis
      const done = yield* Effect.forEach(cases, (evalCase) => runCase(target, evalCase), {
        concurrency: CASES_AT_ONCE
      })
      const finishedAt = yield* Clock.currentTimeMillis
      const results = done.map((one) => one.result)
      const status = runStatus(results)
      return yield* runs.insert({
        id: uuidv7() as AiAgentEvalRunId,
        workspaceId: target.workspaceId,
        agentId: target.agentId,
        version: target.version,
        draftRevision: target.version === null ? target.draftRevision : null,
        trigger,
        status,
        score: runScore(results),
        caseCount: results.length,
        passedCount: results.filter((result) => result.status === "passed").length,
        results,
        model: done.find((one) => one.model !== null)?.model ?? null,
        error: status === "error" ? results.find((result) => result.error !== null)?.error ?? null : null,
        usage: results.reduce((sum, result) => addUsage(sum, result.usage), NO_USAGE),
        latencyMs: Math.max(0, Math.round(finishedAt - startedAt)),
        startedAt: new Date(startedAt),
        finishedAt: new Date(finishedAt)
      })
    })

    /** The agent's enabled cases by name: its suite; refused when it has none or more than `MAX_SUITE_CASES`. */
    const enabledSuite = Effect.fn("AgentEvalRunner.enabledSuite")(function*(agent: AiAgent) {
      const cases = yield* evals.enabled(agent.id, MAX_SUITE_CASES + 1)
      if (cases.length > 0 && cases.length <= MAX_SUITE_CASES) return cases
      return yield* new AiAgentEvalSuiteNotRunnable({
        slug: agent.slug,
        enabledCases: cases.length,
        maximum: MAX_SUITE_CASES,
        message: cases.length === 0
          ? "The agent has no enabled eval case"
          : `The agent has more than ${MAX_SUITE_CASES} enabled eval cases; a suite runs at most ${MAX_SUITE_CASES}`
      })
    })

    return { run, enabledSuite } as const
  }),
  dependencies: [AiAgentEvalRepo.Default, AiAgentEvalRunRepo.Default, EvalJudge.Default]
}) {}
