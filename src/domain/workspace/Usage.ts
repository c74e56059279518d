import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { LlmModelName, LlmProvider } from "../settings/LlmConnection.js"
import { PlanRef } from "./BillingStatus.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
const Amount = Schema.Number.pipe(Schema.nonNegative())

/** The size of a usage bucket; buckets follow the UTC calendar (weeks start on Monday). */
export const UsagePeriod = Schema.Literal("day", "week", "month")
export type UsagePeriod = typeof UsagePeriod.Type

/** The most buckets one usage query may return. */
export const MAX_USAGE_BUCKETS = 400

/**
 * The query of the usage report. `period` sizes the buckets (default `day`);
 * `from` and `to` bound the range (ISO 8601; default: the 30 days, 12 weeks
 * or 12 months up to now). The range is widened to whole buckets.
 */
export const UsageParams = Schema.Struct({
  period: Schema.optionalWith(UsagePeriod, { default: () => "day" }),
  from: Schema.optional(Schema.DateTimeUtc),
  to: Schema.optional(Schema.DateTimeUtc)
})
export type UsageParams = typeof UsageParams.Type

/** What the workspace used in a span of time. */
export const UsageCounts = Schema.Struct({
  sessions: Count.annotations({
    description: "Conversations started: Assistant runtime sessions (AI-agent conversations and workflow simulator " +
      "sessions will count here once those areas exist)"
  }),
  turns: Count.annotations({ description: "Messages answered in those conversations (the opening is not a turn)" }),
  aiTokensIn: Count.annotations({ description: "Tokens sent to language models" }),
  aiTokensOut: Count.annotations({ description: "Tokens language models produced" }),
  aiCostUsd: Amount.annotations({
    description: "The estimated cost of those tokens at the list prices of the price table (PARLEY_AI_PRICES over " +
      "built-in prices), in US dollars; a model the table does not list counts 0"
  }),
  voiceMinutes: Amount.annotations({ description: "Minutes of voice calls: 0 until voice channels exist" }),
  workflowRuns: Count.annotations({ description: "Workflow runs started: 0 until workflows exist" }),
  storageBytes: Count.annotations({
    description: "Bytes stored at the end of the span, a level, not a sum. An estimate: the PostgreSQL size of " +
      "the workspace's rows still stored that were created before the span's end (Assistants with their intents " +
      "and flows, deployments, imports, conversations and their transcripts)"
  })
}).annotations({ identifier: "UsageCounts" })

/** The usage of one bucket, `[start, end)`. */
export const UsageBucket = Schema.Struct({
  start: Schema.DateTimeUtc,
  end: Schema.DateTimeUtc,
  ...UsageCounts.fields
}).annotations({ identifier: "UsageBucket" })

/** AI tokens and cost of one provider and model over the whole range. */
export const AiModelUsage = Schema.Struct({
  provider: LlmProvider,
  model: LlmModelName,
  tokensIn: Count,
  tokensOut: Count,
  costUsd: Amount,
  /** Whether the price table lists the model; an unpriced model's tokens cost 0 (`PARLEY_AI_PRICES` adds prices). */
  priced: Schema.Boolean
}).annotations({ identifier: "AiModelUsage" })

/** The workspace's plan and its usage by period; nothing is capped, usage is only reported. */
export const WorkspaceUsage = Schema.Struct({
  plan: PlanRef,
  period: UsagePeriod,
  from: Schema.DateTimeUtc,
  to: Schema.DateTimeUtc,
  /** When the counts were last aggregated; activity after it shows on the next read. */
  asOf: Schema.DateTimeUtc,
  totals: UsageCounts,
  buckets: Schema.Array(UsageBucket),
  aiByModel: Schema.Array(AiModelUsage)
}).annotations({ identifier: "WorkspaceUsage" })
export type WorkspaceUsage = typeof WorkspaceUsage.Type

/** The usage range is empty, reversed, or holds more than 400 buckets. */
export class UsageRangeInvalid extends Schema.TaggedError<UsageRangeInvalid>()(
  "UsageRangeInvalid",
  { message: Schema.String, maxBuckets: Schema.Number },
  HttpApiSchema.annotations({ status: 400 })
) {}
