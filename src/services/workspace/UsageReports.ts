/**
 * The workspace's usage by day, week or month. Sessions and turns are counted
 * from the runtime's own rows, AI tokens from what the nodes' `UsageMeter`s
 * flushed, storage from the size of the workspace's rows; cost is priced at
 * read time from the price table (so a price added later prices past usage
 * too). Voice minutes and workflow runs are 0 until those areas exist.
 */
import { Clock, DateTime, Duration, Effect } from "effect"
import { AiPrices, Plan, UsageFlushInterval } from "../../config/Settings.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { LlmProvider } from "../../domain/settings/LlmConnection.js"
import { costOf, priceOf } from "../../domain/workspace/AiPrices.js"
import type { UsageParams, WorkspaceUsage } from "../../domain/workspace/Usage.js"
import { usageRange, utcDay } from "../../domain/workspace/UsageRange.js"
import { UsageCounterRepo } from "../../persistence/workspace/UsageCounterRepo.js"
import { type DailyCount, UsageRepo } from "../../persistence/workspace/UsageRepo.js"
import { UsageMetric } from "./UsageMeter.js"

type Counts = WorkspaceUsage["totals"]

const zero = (): { -readonly [K in keyof Counts]: Counts[K] } => ({
  sessions: 0,
  turns: 0,
  aiTokensIn: 0,
  aiTokensOut: 0,
  aiCostUsd: 0,
  voiceMinutes: 0,
  workflowRuns: 0,
  storageBytes: 0
})

/** Cents are enough for a cost estimate; the rounding keeps sums of floats readable. */
const dollars = (amount: number) => Math.round(amount * 1e6) / 1e6

export class UsageReports extends Effect.Service<UsageReports>()("parley/services/workspace/UsageReports", {
  effect: Effect.gen(function*() {
    const runtime = yield* UsageRepo
    const counters = yield* UsageCounterRepo
    const prices = yield* AiPrices
    const plan = yield* Plan
    const flushInterval = Duration.toMillis(yield* UsageFlushInterval)

    /** The usage report of a workspace; `UsageRangeInvalid` for an empty, reversed or too long range. */
    const report = Effect.fn("UsageReports.report")(function*(workspaceId: WorkspaceId, params: UsageParams) {
      const now = yield* Clock.currentTimeMillis
      const range = yield* usageRange(params, now)
      const from = new Date(range.from)
      const to = new Date(range.to)
      const [sessions, turns, storage, ai] = yield* Effect.all([
        runtime.sessionsPerDay(workspaceId, from, to),
        runtime.turnsPerDay(workspaceId, from, to),
        runtime.storageGrowth(workspaceId, from, to),
        counters.between(workspaceId, utcDay(range.from), utcDay(range.to))
      ], { concurrency: "unbounded" })

      const buckets = range.buckets.map(([start, end]) => ({ start, end, counts: zero() }))
      // Buckets are whole days, in order: a day falls in the bucket that starts at or before it.
      const bucketOf = (day: string) => {
        const millis = Date.parse(`${day}T00:00:00Z`)
        return buckets.find((bucket) => bucket.start <= millis && millis < bucket.end)
      }
      const addDaily = (rows: ReadonlyArray<DailyCount>, field: "sessions" | "turns") =>
        rows.forEach((row) => {
          const bucket = bucketOf(row.day)
          if (bucket !== undefined) bucket.counts[field] += row.amount
        })
      addDaily(sessions, "sessions")
      addDaily(turns, "turns")

      const byModel = new Map<string, { provider: LlmProvider; model: string; tokensIn: number; tokensOut: number }>()
      for (const row of ai) {
        const bucket = bucketOf(row.day)
        const key = `${row.provider}/${row.model}`
        const model = byModel.get(key) ??
          { provider: row.provider as LlmProvider, model: row.model, tokensIn: 0, tokensOut: 0 }
        byModel.set(key, model)
        const price = priceOf(prices, row.provider, row.model)
        if (row.metric === UsageMetric.aiTokensIn) {
          model.tokensIn += row.amount
          if (bucket !== undefined) {
            bucket.counts.aiTokensIn += row.amount
            bucket.counts.aiCostUsd += costOf(price, row.amount, 0)
          }
        } else if (row.metric === UsageMetric.aiTokensOut) {
          model.tokensOut += row.amount
          if (bucket !== undefined) {
            bucket.counts.aiTokensOut += row.amount
            bucket.counts.aiCostUsd += costOf(price, 0, row.amount)
          }
        }
      }

      // Storage is a level: what was stored before the range, plus what each day up to the bucket's end added.
      let level = storage.before
      const growth = [...storage.daily].sort((a, b) => a.day.localeCompare(b.day))
      let next = 0
      for (const bucket of buckets) {
        while (next < growth.length && Date.parse(`${growth[next]!.day}T00:00:00Z`) < bucket.end) {
          level += growth[next]!.amount
          next++
        }
        bucket.counts.storageBytes = level
      }

      const totals = zero()
      for (const { counts } of buckets) {
        totals.sessions += counts.sessions
        totals.turns += counts.turns
        totals.aiTokensIn += counts.aiTokensIn
        totals.aiTokensOut += counts.aiTokensOut
        totals.aiCostUsd += counts.aiCostUsd
        counts.aiCostUsd = dollars(counts.aiCostUsd)
      }
      totals.aiCostUsd = dollars(totals.aiCostUsd)
      totals.storageBytes = buckets.at(-1)?.counts.storageBytes ?? 0

      return {
        plan: { key: plan.key, name: plan.name },
        period: range.period,
        from: DateTime.unsafeMake(range.from),
        to: DateTime.unsafeMake(range.to),
        // Every node flushes what it counted at least this often: anything older is in these figures.
        asOf: DateTime.unsafeMake(now - flushInterval),
        totals,
        buckets: buckets.map(({ counts, end, start }) => ({
          start: DateTime.unsafeMake(start),
          end: DateTime.unsafeMake(end),
          ...counts
        })),
        aiByModel: [...byModel.values()].map((model) => {
          const price = priceOf(prices, model.provider, model.model)
          return {
            ...model,
            costUsd: dollars(costOf(price, model.tokensIn, model.tokensOut)),
            priced: price !== undefined
          }
        })
      } satisfies WorkspaceUsage
    })

    return { report } as const
  }),
  dependencies: [UsageRepo.Default, UsageCounterRepo.Default]
}) {}
