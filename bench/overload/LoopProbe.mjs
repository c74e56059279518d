/**
 * Loaded into a benchmarked node (`NODE_OPTIONS="--import <this file>"`),
 * never into Parley itself: what the node's event-loop stalls are made of.
 * A refusal waits for whatever the event loop is doing when it arrives, so
 * the refusals' tail is the loop's stalls; this tells the node's own work from
 * the collector and from the machine.
 *
 * A timer ticks every `TICK_MS`; a tick later than `STALL_MS` ends a stall.
 * For each stall it takes, from `/proc/self/schedstat` (the main thread), how
 * long the thread ran and how long it waited for a CPU while runnable, and
 * from the `gc` performance entries how much of it the collector paused.
 * Every second it prints one line (prefixed with `LOOP_LINE` of `run.ts`) of
 * counters that only grow, so the benchmark takes the difference over its
 * load: the stalls' count and their time split three ways, and the main
 * thread's run and wait time over the whole window.
 *
 * Reading the file every tick costs about 8 µs (20,000 reads timed on this
 * machine), under 0.2% of a CPU at 200 ticks a second.
 */
import * as Fs from "node:fs"
import { performance, PerformanceObserver } from "node:perf_hooks"

const TICK_MS = 5
const STALL_MS = 20

/** The main thread's CPU time and its time runnable but waiting for a CPU, ms. */
const schedstat = () => {
  const [run, wait] = Fs.readFileSync("/proc/self/schedstat", "utf8").split(" ")
  return { run: Number(run) / 1e6, wait: Number(wait) / 1e6 }
}

/** The collector's recent pauses (performance entries arrive a little after the pause). */
const pauses = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration })
}).observe({ entryTypes: ["gc"] })

/** Stalls not yet counted: their GC share is known once the entries of their time have arrived. */
const pending = []
const totals = { stalls: 0, stallMs: 0, gcMs: 0, waitMs: 0, runMs: 0 }

let last = performance.now()
let lastSched = schedstat()
const tick = () => {
  const now = performance.now()
  const sched = schedstat()
  if (now - last - TICK_MS > STALL_MS) {
    pending.push({ start: last, end: now, wait: sched.wait - lastSched.wait, run: sched.run - lastSched.run })
  }
  last = now
  lastSched = sched
  setTimeout(tick, TICK_MS).unref()
}
setTimeout(tick, TICK_MS).unref()

const gcWithin = (start, end) =>
  pauses.reduce((sum, p) => sum + Math.max(0, Math.min(p.end, end) - Math.max(p.start, start)), 0)

setInterval(() => {
  const settled = performance.now() - 500
  while (pending.length > 0 && pending[0].end < settled) {
    const stall = pending.shift()
    totals.stalls++
    totals.stallMs += stall.end - stall.start
    totals.gcMs += gcWithin(stall.start, stall.end)
    totals.waitMs += stall.wait
    totals.runMs += stall.run
  }
  while (pauses.length > 0 && pauses[0].end < settled - 5_000) pauses.shift()
  const sched = schedstat()
  process.stderr.write(
    `overload-bench-loop ${
      JSON.stringify({ ...totals, mainRunMs: sched.run, mainWaitMs: sched.wait, at: Date.now() })
    }\n`
  )
}, 1000).unref()
