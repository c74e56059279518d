import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { EvalExpectation } from "../../../../../src/domain/aiAgents/EvalExpectation.js"
import type { EvalCaseResult } from "../../../../../src/domain/aiAgents/EvalRun.js"
import { addUsage, caseScore, runScore, runStatus } from "../../../../../src/domain/aiAgents/evals/CaseScore.js"
import { evalCaseProblems } from "../../../../../src/domain/aiAgents/evals/EvalCaseRules.js"
import { jsonEquals, jsonSubset } from "../../../../../src/domain/aiAgents/evals/JsonMatch.js"
import { gateReport, refusalMessage, refusalReasons } from "../../../../../src/domain/aiAgents/evals/PublishGate.js"
import type { AiAgentEvalId, AiAgentEvalRunId } from "../../../../../src/domain/aiAgents/Ids.js"

const result = (passed: boolean, score: number) => ({
  index: 0,
  kind: "contains" as const,
  passed,
  score,
  reason: ""
})

const caseResult = (name: string, status: EvalCaseResult["status"], score: number, weight = 1): EvalCaseResult => ({
  evalId: "0190c7a0-0000-7000-8000-000000000001" as AiAgentEvalId,
  name,
  weight,
  status,
  score,
  reply: null,
  toolCalls: [],
  guardrailEvents: [],
  finishReason: null,
  expectations: [],
  usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
  latencyMs: 0,
  error: null
})

describe("eval scores", () => {
  it("a case passes when every expectation passes and scores their mean", () => {
    expect(caseScore([result(true, 1), result(true, 0.8)])).toEqual({ status: "passed", score: 0.9 })
    expect(caseScore([result(true, 1), result(false, 0)])).toEqual({ status: "failed", score: 0.5 })
  })

  it("a run scores the weighted mean of its cases, an error case as 0", () => {
    expect(runScore([caseResult("a", "passed", 1, 3), caseResult("b", "failed", 0.5, 1)])).toBe(0.875)
    expect(runScore([caseResult("a", "passed", 1), caseResult("b", "error", 1)])).toBe(0.5)
    expect(runScore([])).toBe(0)
    expect(runStatus([caseResult("a", "passed", 1)])).toBe("passed")
    expect(runStatus([caseResult("a", "passed", 1), caseResult("b", "error", 0)])).toBe("failed")
    expect(runStatus([caseResult("b", "error", 0)])).toBe("error")
    expect(
      addUsage({ inputTokens: 1, outputTokens: 2, costUsd: 0.5 }, { inputTokens: 3, outputTokens: 4, costUsd: null })
    )
      .toEqual({ inputTokens: 4, outputTokens: 6, costUsd: null })
  })

  it("JSON matching: subset at any depth, arrays element by element; exact compares everything", () => {
    expect(jsonSubset({ a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } })).toBe(true)
    expect(jsonSubset({ a: [{ x: 1, y: 2 }] }, { a: [{ x: 1 }] })).toBe(true)
    expect(jsonSubset({ a: [1, 2, 3] }, { a: [1, 2] })).toBe(false)
    expect(jsonSubset({ a: "1" }, { a: 1 })).toBe(false)
    expect(jsonSubset({ a: null }, { a: null })).toBe(true)
    expect(jsonEquals({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(jsonEquals({ a: 1, b: 2 }, { a: 1 })).toBe(false)
  })

  it("a case's regexes must compile and its JSON schemas be of the supported subset, named by field", () => {
    const decode = Schema.decodeUnknownSync(EvalExpectation)
    const problems = evalCaseProblems([
      decode({ kind: "contains", value: "ok" }),
      decode({ kind: "regex", pattern: "(unclosed" }),
      decode({ kind: "regex", pattern: "(?=ahead)x" }),
      decode({ kind: "json-schema", schema: { type: "object", oneOf: [] } }),
      decode({ kind: "json-schema", schema: { type: "strange" } }),
      decode({ kind: "regex", pattern: "fine \\d+", flags: "i" })
    ])
    expect(problems.map((problem) => problem.field)).toEqual([
      "expectations.1.pattern",
      "expectations.2.pattern",
      "expectations.3.schema.oneOf",
      "expectations.4.schema.type"
    ])
    expect(problems[1]!.message).toContain("lookahead")
  })

  it("the publish gate refuses under the minimum or under the live version, naming the failing cases", () => {
    const gates = { runEvalsOnPublish: true, minimumScore: 0.6, mustNotRegress: true }
    expect(refusalReasons(0.5, gates, null)).toEqual(["below-minimum-score"])
    expect(refusalReasons(0.7, gates, 0.9)).toEqual(["below-live-version"])
    expect(refusalReasons(0.9, gates, 0.9)).toEqual([])
    expect(refusalReasons(0.7, { ...gates, mustNotRegress: false }, 0.9)).toEqual([])
    const run = {
      id: "0190c7a0-0000-7000-8000-0000000000aa" as AiAgentEvalRunId,
      score: 2 / 3,
      results: [
        caseResult("greets", "passed", 1),
        caseResult("refund policy", "failed", 0),
        caseResult("x", "passed", 1)
      ]
    }
    const report = gateReport(run, gates, 1)
    expect(report).toMatchObject({ passed: false, caseCount: 3, liveScore: 1, minimumScore: 0.6 })
    expect(report.failingCases.map((c) => c.name)).toEqual(["refund policy"])
    expect(refusalMessage(report, ["below-live-version"])).toBe(
      "The publish gate refused the candidate: the eval score 0.667 is under the live version's 1; " +
        "failing cases: refund policy"
    )
  })
})
