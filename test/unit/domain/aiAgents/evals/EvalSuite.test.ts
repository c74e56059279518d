import { describe, expect, it } from "@effect/vitest"
import { suiteTotals } from "../../../../../src/domain/aiAgents/EvalSuite.js"

describe("a suite's totals", () => {
  it("are the share of cases passed and the cases' latencies added up; an error case is not a pass", () => {
    expect(suiteTotals([
      { status: "passed", latencyMs: 120 },
      { status: "failed", latencyMs: 80 },
      { status: "error", latencyMs: 5 },
      { status: "passed", latencyMs: 0 }
    ])).toEqual({ passRate: 0.5, caseLatencyMs: 205 })
  })

  it("are zero for no case", () => {
    expect(suiteTotals([])).toEqual({ passRate: 0, caseLatencyMs: 0 })
  })
})
