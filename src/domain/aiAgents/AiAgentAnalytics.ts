import { Schema } from "effect"
import { analyticsWindowFields, UtcDay } from "../AnalyticsWindow.js"
import { Name } from "../Name.js"
import { ToolName } from "../workspace/HttpToolDefinition.js"
import { TokenUsage } from "./AgentTurn.js"
import { GuardrailAction, GuardrailStage } from "./Guardrail.js"
import { GuardrailKind } from "./GuardrailRule.js"
import { AiAgentGuardrailId } from "./Ids.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
const Rate = Schema.Number.pipe(Schema.between(0, 1))
const Millis = Schema.Number.pipe(Schema.nonNegative())

/** Turn latency percentiles in milliseconds (wall time, tools included); null when there were no turns. */
export const LatencyPercentiles = Schema.Struct({
  p50: Schema.NullOr(Millis),
  p95: Schema.NullOr(Millis),
  p99: Schema.NullOr(Millis)
}).annotations({ identifier: "LatencyPercentiles" })

/** How one tool fared: calls, successes, failures and blocks; `successRate` is null when it was never called. */
export const ToolAnalytics = Schema.Struct({
  name: ToolName,
  calls: Count,
  succeeded: Count,
  failed: Count,
  blocked: Count,
  successRate: Schema.NullOr(Rate),
  p95LatencyMs: Schema.NullOr(Millis)
}).annotations({ identifier: "ToolAnalytics" })

/** How often one guardrail fired. */
export const GuardrailAnalytics = Schema.Struct({
  guardrailId: AiAgentGuardrailId,
  name: Name,
  kind: GuardrailKind,
  stage: GuardrailStage,
  action: GuardrailAction,
  hits: Count
}).annotations({ identifier: "GuardrailAnalytics" })

/** Eval runs in the period: how many, the share of cases that passed, and the latest run's score. */
export const EvalAnalytics = Schema.Struct({
  runs: Count,
  passRate: Schema.NullOr(Rate),
  latestScore: Schema.NullOr(Rate)
}).annotations({ identifier: "EvalAnalytics" })

/** One UTC day of the series. */
export const AiAgentAnalyticsDay = Schema.Struct({
  day: UtcDay,
  conversations: Count,
  turns: Count,
  usage: TokenUsage,
  p95LatencyMs: Schema.NullOr(Millis),
  guardrailHits: Count,
  handoffs: Count
}).annotations({ identifier: "AiAgentAnalyticsDay" })

/**
 * An agent's activity over the last `days` days (UTC), from its public and
 * channel conversations (playground runs excluded): volume, tokens and cost,
 * latency, tool success, guardrail hits, eval pass rate, and a daily series
 * with a row for every day, quiet ones included.
 */
export class AiAgentAnalytics extends Schema.Class<AiAgentAnalytics>("AiAgentAnalytics")({
  ...analyticsWindowFields,
  conversations: Count,
  turns: Count,
  /** Distinct end-user ids seen (conversations without one are not counted). */
  endUsers: Count,
  handoffs: Count,
  usage: TokenUsage,
  latencyMs: LatencyPercentiles,
  tools: Schema.Array(ToolAnalytics),
  guardrails: Schema.Array(GuardrailAnalytics),
  evals: EvalAnalytics,
  daily: Schema.Array(AiAgentAnalyticsDay)
}) {}
