/**
 * Counts what language-model calls cost a workspace without costing the turn
 * a write: `record` adds to this node's counts in memory, and a fiber adds
 * them to `usage_counters` in one statement every `PARLEY_USAGE_FLUSH_INTERVAL`
 * (5 s by default) and once more when the node stops. Every node flushes its
 * own counts as increments, so the nodes' counts sum. A node that dies without
 * stopping loses at most what it counted since its last flush; a flush the
 * database refused is kept and tried again with the next one.
 */
import { Clock, Duration, Effect } from "effect"
import { UsageFlushInterval } from "../../config/Settings.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import type { LlmProvider } from "../../domain/settings/LlmConnection.js"
import { utcDay } from "../../domain/workspace/UsageRange.js"
import { UsageCounterRepo, type UsageIncrement } from "../../persistence/workspace/UsageCounterRepo.js"

/** The tokens of one language-model call, as its provider reported them. */
export interface AiUsage {
  readonly workspaceId: WorkspaceId
  readonly provider: LlmProvider
  readonly model: string
  readonly inputTokens: number
  readonly outputTokens: number
}

/** The metrics `usage_counters` holds. */
export const UsageMetric = {
  aiTokensIn: "ai.tokens.in",
  aiTokensOut: "ai.tokens.out",
  aiCalls: "ai.calls"
} as const

const whole = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.round(value) : 0)

export class UsageMeter extends Effect.Service<UsageMeter>()("parley/services/workspace/UsageMeter", {
  scoped: Effect.gen(function*() {
    const repo = yield* UsageCounterRepo
    const interval = yield* UsageFlushInterval
    let pending = new Map<string, UsageIncrement>()

    const add = (increment: UsageIncrement) => {
      if (increment.amount === 0) return
      const key = JSON.stringify([
        increment.workspaceId,
        increment.day,
        increment.metric,
        increment.provider,
        increment.model
      ])
      const counted = pending.get(key)
      pending.set(key, counted === undefined ? increment : { ...counted, amount: counted.amount + increment.amount })
    }

    /** Count one call's tokens in this node's memory; never waits for the database. */
    const record = (usage: AiUsage): Effect.Effect<void> =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const base = { workspaceId: usage.workspaceId, day: utcDay(now), provider: usage.provider, model: usage.model }
        add({ ...base, metric: UsageMetric.aiTokensIn, amount: whole(usage.inputTokens) })
        add({ ...base, metric: UsageMetric.aiTokensOut, amount: whole(usage.outputTokens) })
        add({ ...base, metric: UsageMetric.aiCalls, amount: 1 })
      })

    /** Add this node's counts to the database now; what the database refuses is kept for the next flush. */
    const flush = Effect.suspend(() => {
      const batch = [...pending.values()]
      if (batch.length === 0) return Effect.void
      pending = new Map()
      // Not interruptible: a flush under way either commits or gives its counts back, never half of each.
      return repo.add(batch).pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.sync(() => batch.forEach(add)),
            Effect.logWarning("Usage counts not written; kept for the next flush", cause)
          )
        ),
        Effect.uninterruptible
      )
    }).pipe(Effect.withSpan("UsageMeter.flush"))

    // Registered before the flusher starts, so it runs after the flusher stopped: the last counts of a stopping node.
    yield* Effect.addFinalizer(() => flush)
    yield* flush.pipe(
      Effect.delay(interval),
      Effect.forever,
      Effect.interruptible,
      Effect.forkScoped
    )

    return {
      record,
      flush,
      /** How often this node flushes. */
      interval: Duration.decode(interval)
    } as const
  }),
  dependencies: [UsageCounterRepo.Default]
}) {}
