/**
 * The arithmetic of an AI agent's analytics report, apart from the database:
 * the daily series with every day of the window present (zeros where nothing
 * happened), the totals summed from it, the cost rule (unknown costs add
 * nothing; a sum is null only when no priced turn had a known cost), and each
 * tool's success rate.
 */
import { rate, utcDayOf } from "../deployments/AnalyticsReport.js"
import type { TokenUsage } from "./AgentTurn.js"
import type { AiAgentAnalyticsDay, ToolAnalytics } from "./AiAgentAnalytics.js"

const DAY_MILLIS = 86_400_000

type Day = typeof AiAgentAnalyticsDay.Type

/** The figures of one day that had conversations, as the database counts them. */
export interface CountedDay {
  readonly day: string
  readonly conversations: number
  readonly turns: number
  readonly handoffs: number
  readonly guardrailHits: number
  readonly inputTokens: number
  readonly outputTokens: number
  /** The sum of the known costs (0 when none was known). */
  readonly knownCostUsd: number
  /** Assistant messages with usage, and how many of those had a known cost. */
  readonly pricedMessages: number
  readonly costedMessages: number
  readonly p95LatencyMs: number | null
}

/** A day with no traffic. */
export const quietDay = (day: string): Day => ({
  day,
  conversations: 0,
  turns: 0,
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  p95LatencyMs: null,
  guardrailHits: 0,
  handoffs: 0
})

const dayOf = (counted: CountedDay): Day => ({
  day: counted.day,
  conversations: counted.conversations,
  turns: counted.turns,
  usage: usageOf([counted]),
  p95LatencyMs: counted.p95LatencyMs,
  guardrailHits: counted.guardrailHits,
  handoffs: counted.handoffs
})

/** One entry per day from `from`, `days` of them, oldest first: the counted days, zeros for the others. */
export const agentDays = (from: string, days: number, counted: ReadonlyArray<CountedDay>): ReadonlyArray<Day> => {
  const byDay = new Map(counted.map((day) => [day.day, day]))
  const start = Date.parse(`${from}T00:00:00Z`)
  return Array.from({ length: days }, (_, index) => {
    const day = utcDayOf(start + index * DAY_MILLIS)
    const found = byDay.get(day)
    return found === undefined ? quietDay(day) : dayOf(found)
  })
}

/**
 * The usage of some counted days added up. Costs add up over the known ones
 * (an unknown cost adds nothing); the cost is null only when there were
 * priced messages and not one of them had a known cost (no usage at all costs 0).
 */
export const usageOf = (counted: ReadonlyArray<CountedDay>): TokenUsage => {
  const total = (pick: (day: CountedDay) => number) => counted.reduce((sum, day) => sum + pick(day), 0)
  const priced = total((day) => day.pricedMessages)
  const costed = total((day) => day.costedMessages)
  return {
    inputTokens: total((day) => day.inputTokens),
    outputTokens: total((day) => day.outputTokens),
    costUsd: priced > 0 && costed === 0 ? null : roundCost(total((day) => day.knownCostUsd))
  }
}

/** A dollar amount to the micro-dollar, so sums of binary fractions read as the amounts they are. */
export const roundCost = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000

/** How one tool's calls ended, as the database counts them. */
export interface CountedTool {
  readonly name: string
  readonly succeeded: number
  readonly failed: number
  readonly blocked: number
  readonly p95LatencyMs: number | null
}

/**
 * A tool's figures: every call counts (a blocked one too, as a call that did
 * not succeed), and the success rate is succeeded over calls, null without calls.
 */
export const toolFigures = (tool: CountedTool): typeof ToolAnalytics.Type => {
  const calls = tool.succeeded + tool.failed + tool.blocked
  return {
    name: tool.name,
    calls,
    succeeded: tool.succeeded,
    failed: tool.failed,
    blocked: tool.blocked,
    successRate: calls === 0 ? null : rate(tool.succeeded, calls),
    p95LatencyMs: tool.p95LatencyMs
  }
}

/** The totals of the counted days: counts summed, usage by `usageOf`. */
export const totalsOf = (counted: ReadonlyArray<CountedDay>) => ({
  conversations: counted.reduce((sum, day) => sum + day.conversations, 0),
  turns: counted.reduce((sum, day) => sum + day.turns, 0),
  handoffs: counted.reduce((sum, day) => sum + day.handoffs, 0),
  guardrailHits: counted.reduce((sum, day) => sum + day.guardrailHits, 0),
  usage: usageOf(counted)
})
