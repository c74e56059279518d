/**
 * The eval gate's decision on a publish candidate (DESIGN.md §7): refused
 * when its suite score is under the workspace's `minimumScore`, or, with
 * `mustNotRegress`, under the live version's score on the same suite (run in
 * the same publish); the report lists the cases that did not pass.
 */
import type { PublishGates } from "../../settings/AgentOpsSettings.js"
import type { EvalCaseResult } from "../EvalRun.js"
import type { AiAgentEvalRunId } from "../Ids.js"
import type { EvalGateReport, PublishRefusalReason } from "../Publish.js"

/** The candidate's finished suite run, as the gate reads it. */
export interface GateRun {
  readonly id: AiAgentEvalRunId
  readonly score: number
  readonly results: ReadonlyArray<EvalCaseResult>
}

/** Why the gate refuses (empty: it lets the candidate through). */
export const refusalReasons = (
  score: number,
  gates: typeof PublishGates.Type,
  liveScore: number | null
): Array<typeof PublishRefusalReason.Type> => [
  ...(score < gates.minimumScore ? ["below-minimum-score" as const] : []),
  ...(gates.mustNotRegress && liveScore !== null && score < liveScore ? ["below-live-version" as const] : [])
]

/** The gate's report on the candidate's run. */
export const gateReport = (
  run: GateRun,
  gates: typeof PublishGates.Type,
  liveScore: number | null
): typeof EvalGateReport.Type => ({
  evalRunId: run.id,
  score: run.score,
  minimumScore: gates.minimumScore,
  liveScore,
  passed: refusalReasons(run.score, gates, liveScore).length === 0,
  caseCount: run.results.length,
  failingCases: run.results.filter((result) => result.status !== "passed")
})

/** The refusal's message: the reasons and the failing cases by name. */
export const refusalMessage = (
  report: typeof EvalGateReport.Type,
  reasons: ReadonlyArray<typeof PublishRefusalReason.Type>
): string => {
  const why = reasons.map((reason) =>
    reason === "below-minimum-score"
      ? `the eval score ${round(report.score)} is under the minimum ${report.minimumScore}`
      : `the eval score ${round(report.score)} is under the live version's ${round(report.liveScore ?? 0)}`
  )
  const failing = report.failingCases.map((result) => result.name)
  return (`The publish gate refused the candidate: ${why.join(" and ")}` +
    (failing.length === 0 ? "" : `; failing cases: ${failing.join(", ")}`)).slice(0, 4000)
}

const round = (score: number) => Math.round(score * 1000) / 1000
