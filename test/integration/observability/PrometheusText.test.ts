import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, MetricBoundaries } from "effect"
import { renderPrometheus } from "../../../src/observability/PrometheusText.js"
import { promtoolCheck } from "../../support/Promtool.js"

describe("renderPrometheus", () => {
  it.effect("renders counters, gauges and histograms in families that promtool accepts", () =>
    Effect.gen(function*() {
      const requests = Metric.counter("test_render_requests", { description: "Requests", incremental: true })
      const level = Metric.gauge("test_render_level_bytes", { description: "A level" })
      const duration = Metric.histogram(
        "test_render_duration_seconds",
        MetricBoundaries.fromIterable([0.1, 1]),
        "A duration"
      )
      yield* Metric.increment(Metric.tagged(requests, "route", "/v1/a"))
      yield* Metric.incrementBy(Metric.tagged(requests, "route", "/v1/b"), 2)
      yield* Metric.set(level, 42)
      yield* Metric.update(duration, 0.5)
      yield* Metric.update(duration, 5)
      const text = renderPrometheus(
        (yield* Metric.snapshot).filter((pair) => pair.metricKey.name.startsWith("test_render"))
      )
      expect(text).toContain("# TYPE test_render_requests_total counter")
      expect(text).toContain(`test_render_requests_total{route="/v1/b"} 2`)
      expect(text).toContain("test_render_level_bytes 42")
      expect(text).toContain(`test_render_duration_seconds_bucket{le="0.1"} 0`)
      expect(text).toContain(`test_render_duration_seconds_bucket{le="1"} 1`)
      expect(text).toContain(`test_render_duration_seconds_bucket{le="+Inf"} 2`)
      expect(text).toContain("test_render_duration_seconds_sum 5.5")
      expect(text.match(/# TYPE test_render_requests_total/g)).toHaveLength(1)
      expect(promtoolCheck(text)).toBe("")
    }))

  it.effect("escapes label values and help text, and renders a counter that can fall as a gauge", () =>
    Effect.gen(function*() {
      const odd = Metric.counter("test_escape.active", { description: "Line one\nline two \\ end" })
      yield* Metric.increment(Metric.tagged(odd, "path", "a\"b\\c\nd"))
      const text = renderPrometheus(
        (yield* Metric.snapshot).filter((pair) => pair.metricKey.name === "test_escape.active")
      )
      expect(text).toContain("# HELP test_escape_active Line one\\nline two \\\\ end")
      expect(text).toContain("# TYPE test_escape_active gauge")
      expect(text).toContain(`test_escape_active{path="a\\"b\\\\c\\nd"} 1`)
      expect(promtoolCheck(text)).toBe("")
    }))
})
