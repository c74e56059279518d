/**
 * How an eval case and a run of cases are scored: a case passes when every
 * expectation passes and scores the mean of their scores; a case that could
 * not be judged (`error`) scores 0. A run scores the weighted mean of its
 * cases (weights as the cases had when they ran), passes when every case
 * passed, and is an `error` only when no case could be judged at all.
 */
import type { TokenUsage } from "../AgentTurn.js"
import type { EvalCaseResult, EvalExpectationResult, EvalRunStatus } from "../EvalRun.js"

/** A case's status and score from its expectations' results. */
export const caseScore = (
  expectations: ReadonlyArray<EvalExpectationResult>
): { readonly status: "passed" | "failed"; readonly score: number } => ({
  status: expectations.every((result) => result.passed) ? "passed" : "failed",
  score: expectations.length === 0
    ? 0
    : expectations.reduce((sum, result) => sum + result.score, 0) / expectations.length
})

/** The weighted mean of the cases' scores (an `error` case counts 0); 0 for no case. */
export const runScore = (cases: ReadonlyArray<Pick<EvalCaseResult, "status" | "score" | "weight">>): number => {
  const weights = cases.reduce((sum, result) => sum + result.weight, 0)
  if (weights === 0) return 0
  const score = cases.reduce((sum, result) => sum + result.weight * (result.status === "error" ? 0 : result.score), 0) /
    weights
  return Math.min(1, Math.max(0, score))
}

/** A finished run's status: passed when every case passed, error when none could be judged, else failed. */
export const runStatus = (cases: ReadonlyArray<Pick<EvalCaseResult, "status">>): EvalRunStatus =>
  cases.length > 0 && cases.every((result) => result.status === "passed")
    ? "passed"
    : cases.length > 0 && cases.every((result) => result.status === "error")
    ? "error"
    : "failed"

/** Two usages summed; the cost is known only when both are. */
export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd
})
