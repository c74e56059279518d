import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  agentDays,
  type CountedDay,
  roundCost,
  toolFigures,
  totalsOf,
  usageOf
} from "../../../../src/domain/aiAgents/AgentAnalytics.js"
import { AiAgentAnalyticsDay } from "../../../../src/domain/aiAgents/AiAgentAnalytics.js"

const counted = (day: string, more: Partial<CountedDay> = {}): CountedDay => ({
  day,
  conversations: 1,
  turns: 2,
  handoffs: 0,
  guardrailHits: 0,
  inputTokens: 100,
  outputTokens: 10,
  knownCostUsd: 0.001,
  pricedMessages: 2,
  costedMessages: 2,
  p95LatencyMs: 900,
  ...more
})

describe("agentDays", () => {
  it("has one entry per day of the window, oldest first, zeros for the quiet ones", () => {
    const days = agentDays("2025-02-27", 4, [counted("2025-03-01", { handoffs: 1, guardrailHits: 3 })])
    expect(days.map((day) => day.day)).toEqual(["2025-02-27", "2025-02-28", "2025-03-01", "2025-03-02"])
    expect(days[0]).toEqual({
      day: "2025-02-27",
      conversations: 0,
      turns: 0,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      p95LatencyMs: null,
      guardrailHits: 0,
      handoffs: 0
    })
    expect(days[2]).toEqual({
      day: "2025-03-01",
      conversations: 1,
      turns: 2,
      usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.001 },
      p95LatencyMs: 900,
      guardrailHits: 3,
      handoffs: 1
    })
    for (const day of days) expect(Schema.is(AiAgentAnalyticsDay)(day)).toBe(true)
  })

  it("ignores counted days outside the window and crosses a year's end", () => {
    const days = agentDays("2024-12-31", 2, [counted("2024-12-30"), counted("2025-01-01")])
    expect(days.map((day) => [day.day, day.conversations])).toEqual([["2024-12-31", 0], ["2025-01-01", 1]])
  })
})

describe("usageOf", () => {
  it("sums the known costs and leaves the unknown ones out", () => {
    expect(usageOf([
      counted("2025-01-01", { knownCostUsd: 0.001, pricedMessages: 2, costedMessages: 1 }),
      counted("2025-01-02", { knownCostUsd: 0.002 })
    ])).toEqual({ inputTokens: 200, outputTokens: 20, costUsd: 0.003 })
  })

  it("is null only when every priced message's cost was unknown", () => {
    const unknown = counted("2025-01-01", { knownCostUsd: 0, pricedMessages: 3, costedMessages: 0 })
    expect(usageOf([unknown]).costUsd).toBeNull()
    expect(usageOf([unknown, counted("2025-01-02", { knownCostUsd: 0, pricedMessages: 1, costedMessages: 1 })]).costUsd)
      .toBe(0)
    expect(usageOf([])).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 })
    expect(usageOf([counted("2025-01-01", { pricedMessages: 0, costedMessages: 0, knownCostUsd: 0 })]).costUsd)
      .toBe(0)
  })

  it("rounds sums of binary fractions to the micro-dollar", () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(roundCost(0.1 + 0.2)).toBe(0.3)
    expect(usageOf([counted("a", { knownCostUsd: 0.1 }), counted("b", { knownCostUsd: 0.2 })]).costUsd).toBe(0.3)
  })
})

describe("toolFigures", () => {
  it("counts blocked calls as calls that did not succeed", () => {
    expect(toolFigures({ name: "lookup", succeeded: 2, failed: 1, blocked: 1, p95LatencyMs: 120 })).toEqual({
      name: "lookup",
      calls: 4,
      succeeded: 2,
      failed: 1,
      blocked: 1,
      successRate: 0.5,
      p95LatencyMs: 120
    })
    expect(toolFigures({ name: "x", succeeded: 1, failed: 2, blocked: 0, p95LatencyMs: null }).successRate).toBe(
      0.3333
    )
  })

  it("has no success rate without calls", () => {
    expect(toolFigures({ name: "idle", succeeded: 0, failed: 0, blocked: 0, p95LatencyMs: null })).toMatchObject({
      calls: 0,
      successRate: null
    })
  })
})

describe("totalsOf", () => {
  it("adds up the counted days", () => {
    expect(totalsOf([
      counted("2025-01-01", { handoffs: 1, guardrailHits: 2 }),
      counted("2025-01-02", { conversations: 3, turns: 7, guardrailHits: 1, costedMessages: 0, knownCostUsd: 0 })
    ])).toEqual({
      conversations: 4,
      turns: 9,
      handoffs: 1,
      guardrailHits: 3,
      usage: { inputTokens: 200, outputTokens: 20, costUsd: 0.001 }
    })
    expect(totalsOf([])).toEqual({
      conversations: 0,
      turns: 0,
      handoffs: 0,
      guardrailHits: 0,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 }
    })
  })
})
