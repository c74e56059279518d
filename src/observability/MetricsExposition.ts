import { Effect, Metric } from "effect"
import { DatabaseInfo } from "../persistence/DatabaseInfo.js"
import { databaseConnections } from "./Metrics.js"
import { sampleProcessMetrics } from "./ProcessMetrics.js"
import { renderPrometheus } from "./PrometheusText.js"

/** What `/metrics` answers: every registered metric, with the sampled gauges brought up to date first. */
export class MetricsExposition extends Effect.Service<MetricsExposition>()("parley/observability/MetricsExposition", {
  effect: Effect.gen(function*() {
    const database = yield* DatabaseInfo
    const render = Effect.gen(function*() {
      yield* sampleProcessMetrics
      const pool = yield* database.poolStats
      yield* Metric.set(Metric.tagged(databaseConnections, "state", "total"), pool.total)
      yield* Metric.set(Metric.tagged(databaseConnections, "state", "idle"), pool.idle)
      yield* Metric.set(Metric.tagged(databaseConnections, "state", "waiting"), pool.waiting)
      return renderPrometheus(yield* Metric.snapshot)
    }).pipe(Effect.withSpan("MetricsExposition.render"))
    return { render } as const
  })
}) {}
