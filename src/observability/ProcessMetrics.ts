/**
 * Process gauges sampled when `/metrics` is scraped: memory, CPU time, start
 * time and event-loop delay, under their conventional Prometheus names; and
 * garbage-collection pauses as they happen. A request can wait no less than
 * the longest stall of the event loop, and the p99 of its delay hides a
 * single long one: the maximum and the collector's pauses show it.
 */
import { Effect, Metric, MetricBoundaries } from "effect"
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

const residentMemory = Metric.gauge("process_resident_memory_bytes", { description: "Resident memory size in bytes" })
const heapUsed = Metric.gauge("nodejs_heap_used_bytes", { description: "V8 heap used in bytes" })
const cpuSeconds = Metric.counter("process_cpu_seconds_total", {
  description: "User and system CPU time spent in seconds",
  incremental: true
})
const startTime = Metric.gauge("process_start_time_seconds", {
  description: "Start time of the process since the Unix epoch in seconds"
})
const eventLoopDelay = Metric.gauge("nodejs_eventloop_delay_p99_seconds", {
  description: "99th percentile of event-loop delay since the previous scrape, in seconds"
})

const eventLoopDelayMax = Metric.gauge("nodejs_eventloop_delay_max_seconds", {
  description: "Longest event-loop delay since the previous scrape, in seconds"
})
const gcDuration = Metric.histogram(
  "nodejs_gc_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]),
  "Garbage collection pauses, by kind (minor, major, incremental, weakcb), in seconds"
)
const gcKinds: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb"
}
const gcByKind = Object.fromEntries(
  Object.values(gcKinds).map((kind) => [kind, Metric.tagged(gcDuration, "kind", kind)])
)
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = gcKinds[(entry as { readonly detail?: { readonly kind?: number } }).detail?.kind ?? -1]
    if (kind !== undefined) gcByKind[kind]!.unsafeUpdate(entry.duration / 1000, [])
  }
}).observe({ entryTypes: ["gc"] })

const startedAt = (Date.now() - process.uptime() * 1000) / 1000
const loopDelay = monitorEventLoopDelay({ resolution: 20 })
loopDelay.enable()
let cpuReported = 0

/** Record the current process figures into their gauges. */
export const sampleProcessMetrics = Effect.suspend(() => {
  const memory = process.memoryUsage()
  const cpu = process.cpuUsage()
  const cpuTotal = (cpu.user + cpu.system) / 1e6
  const cpuDelta = Math.max(0, cpuTotal - cpuReported)
  cpuReported = cpuTotal
  const delay = loopDelay.percentile(99) / 1e9
  const delayMax = loopDelay.max / 1e9
  loopDelay.reset()
  return Effect.all([
    Metric.set(residentMemory, memory.rss),
    Metric.set(heapUsed, memory.heapUsed),
    Metric.incrementBy(cpuSeconds, cpuDelta),
    Metric.set(startTime, startedAt),
    Metric.set(eventLoopDelay, Number.isFinite(delay) ? delay : 0),
    Metric.set(eventLoopDelayMax, Number.isFinite(delayMax) ? delayMax : 0)
  ], { discard: true })
})
