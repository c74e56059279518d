/**
 * `withTags` writes the series `Metric.tagged` writes, and finds its state in
 * the registry once instead of at every update.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Metric, MetricBoundaries, MetricLabel, type MetricState } from "effect"
import { withTags } from "../../../src/observability/FixedTags.js"

/** How often the global registry is asked for a metric's state while `run` runs. */
const registryLookups = (run: () => void): number => {
  const registry = Metric.globalMetricRegistry
  const get = registry.get
  let lookups = 0
  registry.get = function(this: typeof registry, ...args: Parameters<typeof get>) {
    lookups++
    return get.apply(this, args)
  } as typeof get
  try {
    run()
  } finally {
    registry.get = get
  }
  return lookups
}

const countOf = (state: MetricState.MetricState.Counter<number>) => state.count

/** A request's three tags on `metric`, through `withTags` and through `Metric.tagged` three times. */
const bothWays = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>) => ({
  fixed: withTags(metric, [["method", "POST"], ["route", "/v1/x"], ["status", "503"]]),
  tagged: metric.pipe(Metric.tagged("method", "POST"), Metric.tagged("route", "/v1/x"), Metric.tagged("status", "503"))
})

describe("withTags", () => {
  it("counts into the series Metric.tagged counts into, tags in the same order", () => {
    const counter = Metric.counter("fixed_tags_test_same_series_total")
    const { fixed, tagged } = bothWays(counter)
    fixed.unsafeUpdate(2, [])
    tagged.unsafeUpdate(3, [])
    expect(countOf(fixed.unsafeValue([]))).toBe(5)
    expect(countOf(tagged.unsafeValue([]))).toBe(5)
    // Another value of a tag is another series.
    expect(countOf(withTags(counter, [["method", "POST"], ["route", "/v1/x"], ["status", "200"]]).unsafeValue([])))
      .toBe(0)
  })

  it("finds its state once, where Metric.tagged applied three times looks it up at every update", () => {
    const { fixed, tagged } = bothWays(
      Metric.histogram("fixed_tags_test_lookups_seconds", MetricBoundaries.linear({ start: 0, width: 1, count: 5 }))
    )
    fixed.unsafeUpdate(0.5, [])
    tagged.unsafeUpdate(0.5, [])
    expect(registryLookups(() => {
      for (let i = 0; i < 100; i++) fixed.unsafeUpdate(0.5, [])
    })).toBe(0)
    expect(registryLookups(() => {
      for (let i = 0; i < 100; i++) tagged.unsafeUpdate(0.5, [])
    })).toBe(100)
    expect(fixed.unsafeValue([]).count).toBe(202)
  })

  it.effect("works as an Effect metric, and an update's own tags make their own series", () =>
    Effect.gen(function*() {
      const gauge = Metric.gauge("fixed_tags_test_effect")
      const fixed = withTags(gauge, [["state", "idle"]])
      yield* Metric.set(fixed, 7)
      expect(fixed.unsafeValue([]).value).toBe(7)
      expect(Metric.tagged(gauge, "state", "idle").unsafeValue([]).value).toBe(7)
      yield* Metric.set(fixed, 9).pipe(Effect.tagMetrics("node", "a"))
      expect(fixed.unsafeValue([MetricLabel.make("node", "a")]).value).toBe(9)
      expect(fixed.unsafeValue([]).value).toBe(7)
    }))
})
