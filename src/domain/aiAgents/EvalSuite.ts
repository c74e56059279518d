/**
 * An agent's eval suite: its enabled cases, run together by a client (`POST
 * /evals/run`) or by the publish gate. A suite has at least one case and at
 * most `MAX_SUITE_CASES`, so a run of it fits its stored row and finishes in
 * bounded time; its result adds to the stored run what a client reads of a
 * suite at a glance.
 */
import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { Slug } from "../Slug.js"
import { EvalScore } from "./AiAgentVersion.js"
import { AiAgentEvalRun, type EvalCaseResult } from "./EvalRun.js"

/** The most enabled cases a suite runs (a run stores at most 1000 case results). */
export const MAX_SUITE_CASES = 200

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

/**
 * A finished run of the enabled suite: the stored run (every case's result,
 * the weighted score the publish gate reads, the tokens of every case and the
 * judge's, the wall time), the share of cases that passed, and the cases'
 * latencies added up (they run a few at a time, so this exceeds the wall time).
 */
export const AiAgentEvalSuiteResult = Schema.Struct({
  run: AiAgentEvalRun.json,
  /** Cases passed over cases run. */
  passRate: EvalScore,
  /** The sum of the cases' `latencyMs`. */
  caseLatencyMs: Count
}).annotations({ identifier: "AiAgentEvalSuiteResult" })
export type AiAgentEvalSuiteResult = typeof AiAgentEvalSuiteResult.Type

/** What a suite's result adds to its run's cases. */
export const suiteTotals = (results: ReadonlyArray<Pick<EvalCaseResult, "status" | "latencyMs">>) => ({
  passRate: results.length === 0 ? 0 : results.filter((result) => result.status === "passed").length / results.length,
  caseLatencyMs: results.reduce((sum, result) => sum + result.latencyMs, 0)
})

/** The agent's enabled cases are no suite to run: none, or more than `MAX_SUITE_CASES`. */
export class AiAgentEvalSuiteNotRunnable extends Schema.TaggedError<AiAgentEvalSuiteNotRunnable>()(
  "AiAgentEvalSuiteNotRunnable",
  {
    slug: Slug,
    /** How many enabled cases the agent has (counted up to one past the maximum). */
    enabledCases: Count,
    maximum: Count,
    message: Schema.String
  },
  HttpApiSchema.annotations({ status: 422, description: "The agent has no enabled eval case, or too many" })
) {}
