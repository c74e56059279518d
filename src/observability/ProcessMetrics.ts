/**
 * Process gauges sampled when `/metrics` is scraped: memory, CPU time, start
 * time and event-loop delay, under their conventional Prometheus names.
 */
import { Effect, Metric } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"

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
  loopDelay.reset()
  return Effect.all([
    Metric.set(residentMemory, memory.rss),
    Metric.set(heapUsed, memory.heapUsed),
    Metric.incrementBy(cpuSeconds, cpuDelta),
    Metric.set(startTime, startedAt),
    Metric.set(eventLoopDelay, Number.isFinite(delay) ? delay : 0)
  ], { discard: true })
})
