/**
 * What one node does when offered twice what it can do, with admission
 * control and, as the baseline in the same run, without it (both bounds set
 * to 0). Each node is a fresh one (one process, the production composition,
 * on a PostgreSQL server, a database of its own), warmed up first:
 *
 * 1. the unbounded node is swept closed loop (autocannon at 4 to 64
 *    connections, `bench/turns/Load.ts`) for its peak goodput: its
 *    saturation rate (the node with admission control is not swept:
 *    closed-loop clients resend a refused turn at once, which no client that
 *    honours `Retry-After` does);
 * 2. each node in turn gets open-loop load (`OpenLoop.ts`) at 2× the peak (a
 *    bounded node, 2× the peak measured again just before it, below) for
 *    60 s, every request a turn with its own key and a 10 s client time-out,
 *    then 60 s of rest; the nodes with admission control first, the unbounded
 *    one last (its overload leaves it full of turns nobody waits for).
 *
 * The machines here drift by a third within an hour, and the sweep's best is
 * the largest of six short samples taken minutes earlier. So around each
 * bounded node's overload (just before it, and just after its rest) the
 * unbounded node, idle meanwhile, is run again closed loop at the sweep's best
 * concurrency from 16 connections up (`SATURATING`; a best sample at 8 once
 * measured 115/s again where the node at its bound did 129-140/s): the peak
 * in the same minutes, the yardstick of the goodput
 * target (the sweep's best is printed beside it). The first of the two also
 * sets the rate the bounded node is offered: twice the saturation rate of
 * those minutes, not of the sweep's luckiest sample (which offered 2.7× in
 * one run once the machine had slowed). A node with a turns bound is
 * also run closed loop at that bound (nothing is refused) at the same moments:
 * its own rate. Every closed-loop figure and the overload carry the node's CPU
 * per answered turn (from /proc), which tells what a refusal costs the node.
 *
 * The node's RSS is sampled every second from /proc; before the load and after
 * the rest, a probe loaded into the node (`MemoryProbe.mjs`) runs a full GC and
 * prints the heap, which tells held memory from garbage not yet collected.
 *
 *   npm run bench:overload
 *
 * OVERLOAD_NODE_FLAGS adds Node flags to every node of the run (to try the
 * collector's sizes, say; through NODE_OPTIONS, so it cannot undo the nodes'
 * own `NODE_FLAGS`, which are on their command line);
 * OVERLOAD_SKIP_EFFECT_SCHEDULER=1 leaves out the third node, and
 * OVERLOAD_PEAK=<turns/s> the baseline node (the peak an earlier run found is
 * given instead of measured, and not measured again). Shorter runs for
 * development: OVERLOAD_SECONDS, REST_SECONDS, SWEEP_SECONDS and
 * YARDSTICK_SECONDS override the durations. PARLEY_MAX_TURNS_IN_FLIGHT,
 * PARLEY_MAX_REQUESTS_IN_FLIGHT and PARLEY_SCHEDULER_SLICE, when set, replace
 * the defaults on the nodes with admission control (to size them for a
 * machine).
 */
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import { fileURLToPath } from "node:url"
import type { ClusterNode } from "../../test/support/LocalCluster.js"
import { benchNodeEnv, loadAverage, verdict } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"
import { closedLoop, freshNode, pointText, type Running, SESSIONS, type SweepPoint, UNBOUNDED } from "./Nodes.js"
import { openLoop, type Sample } from "./OpenLoop.js"

const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback)

const SWEEP = [4, 8, 16, 24, 32, 64] as const
/** From this many connections the sweep saturates the node (its rate is flat beyond): the yardstick runs there. */
const SATURATING = 16
const SWEEP_SECONDS = seconds("SWEEP_SECONDS", 8)
/** How long the peak is measured again, at the sweep's best concurrency, before and after each bounded node's overload. */
const YARDSTICK_SECONDS = seconds("YARDSTICK_SECONDS", 10)
const SETTLE_SECONDS = 10
const OVERLOAD_SECONDS = seconds("OVERLOAD_SECONDS", 60)
const REST_SECONDS = seconds("REST_SECONDS", 60)
const CLIENT_TIMEOUT_MS = 10_000
const OFFERED = 2

const probe = fileURLToPath(new URL("./MemoryProbe.mjs", import.meta.url))
/** The prefix of the line `MemoryProbe.mjs` prints. */
const MEMORY_LINE = "overload-bench-memory "
const loopProbe = fileURLToPath(new URL("./LoopProbe.mjs", import.meta.url))
/** The prefix of the line `LoopProbe.mjs` prints every second. */
const LOOP_LINE = "overload-bench-loop "
const NODE_ENV = {
  ...benchNodeEnv(),
  // OVERLOAD_NODE_FLAGS: more Node flags for every node of the run (e.g. the collector's sizes), to try them.
  NODE_OPTIONS: `--expose-gc --import ${probe} --import ${loopProbe} ${process.env.OVERLOAD_NODE_FLAGS ?? ""}`.trim()
}

/** Bounds to try instead of the defaults (for sizing them), from the benchmark's own environment. */
const BOUNDS = Object.fromEntries(
  ["PARLEY_MAX_TURNS_IN_FLIGHT", "PARLEY_MAX_REQUESTS_IN_FLIGHT", "PARLEY_SCHEDULER_SLICE"].flatMap((name) => {
    const value = process.env[name]
    return value === undefined ? [] : [[name, value]]
  })
)

/** The nodes of a run: the same load against each. */
const CONFIGS = [
  { label: "baseline (no bounds)", env: UNBOUNDED },
  { label: "admission control (defaults)", env: {} },
  // What the node's scheduler (src/FairScheduler.ts) adds: the same bounds on Effect's own scheduler.
  { label: "admission control on Effect's scheduler", env: { PARLEY_SCHEDULER_SLICE: "0 millis" } }
] as const

const sleep = (s: number) => Effect.sleep(`${s} seconds`)

/** CPU seconds a process has used (user + system), from /proc. */
const cpuSecondsOf = (pid: number): number => cpuMillisOf(pid) / 1000

const rssOf = (pid: number): number => {
  const status = Fs.readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024
}

/** RSS samples, one a second, while `during` runs. */
const sampled = <A, E, R>(node: ClusterNode, during: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const samples: Array<{ readonly at: number; readonly rss: number }> = []
    const sampler = setInterval(() => samples.push({ at: performance.now(), rss: rssOf(node.pid) }), 1000)
    const result = yield* Effect.ensuring(during, Effect.sync(() => clearInterval(sampler)))
    return { result, samples }
  })

interface Memory {
  readonly rss: number
  readonly heapTotal: number
  readonly heapUsed: number
  readonly external: number
  readonly arrayBuffers: number
}

/** The counters `LoopProbe.mjs` printed last (they only grow; times in ms). */
interface LoopCounters {
  readonly stalls: number
  readonly stallMs: number
  readonly gcMs: number
  readonly waitMs: number
  readonly runMs: number
  readonly mainRunMs: number
  readonly mainWaitMs: number
  /** When the probe printed them (between two readings: how long apart). */
  readonly at: number
}

const loopCountersOf = (node: ClusterNode): LoopCounters => {
  const parts = node.output().split(LOOP_LINE)
  return JSON.parse(parts[parts.length - 1]!.split("\n")[0]!) as LoopCounters
}

/** What the loop probe counted between two readings. */
const loopBetween = (before: LoopCounters, after: LoopCounters): LoopCounters => ({
  stalls: after.stalls - before.stalls,
  stallMs: after.stallMs - before.stallMs,
  gcMs: after.gcMs - before.gcMs,
  waitMs: after.waitMs - before.waitMs,
  runMs: after.runMs - before.runMs,
  mainRunMs: after.mainRunMs - before.mainRunMs,
  mainWaitMs: after.mainWaitMs - before.mainWaitMs,
  at: after.at - before.at
})

/** A full GC in the node, then its memory, as the probe prints it. */
const collectedMemory = (node: ClusterNode) =>
  Effect.gen(function*() {
    const seen = node.output().split(MEMORY_LINE).length
    node.kill("SIGUSR2")
    for (let i = 0; i < 100; i++) {
      const parts = node.output().split(MEMORY_LINE)
      if (parts.length > seen) return JSON.parse(parts[parts.length - 1]!.split("\n")[0]!) as Memory
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.dieMessage("the node's memory probe did not answer")
  })

/** The closed-loop point with the most turns per second. */
const fastest = (points: ReadonlyArray<SweepPoint>) =>
  points.reduce<SweepPoint | undefined>(
    (best, point) => (best === undefined || point.turnsPerSecond > best.turnsPerSecond ? point : best),
    undefined
  )

const sweep = (running: Running) =>
  Effect.forEach(SWEEP, (connections) => closedLoop(running, connections, SWEEP_SECONDS))

/** The node's turns bound, from its metrics (0: none). */
const turnsLimitOf = (text: string): number => {
  const line = text.split("\n").find((l) => l.startsWith("parley_admission_limit{") && l.includes(`gate="turns"`))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(" ") + 1))
}

interface Phase {
  readonly label: string
  /** The open-loop rate it was offered, turns/s. */
  readonly offered: number
  /** A node with a turns bound: its own closed-loop rate at that bound, just before the overload and after the rest. */
  readonly own: { readonly connections: number; readonly before: SweepPoint; readonly after: SweepPoint } | undefined
  /** The peak, measured again on the unbounded node just before this node's overload and just after its rest. */
  readonly yardstick: { readonly before: SweepPoint; readonly after: SweepPoint } | undefined
  /** The node's CPU per answered turn during the overload, in ms. */
  readonly cpuPerTurn: number
  readonly samples: ReadonlyArray<Sample>
  /** How late the load's own event loop ran (p99, ms): part of every latency it measured. */
  readonly clientLoopDelayP99: number
  /** CPU used during the load, in CPUs (1 = one CPU all the time): the node's, and the load generator's. */
  readonly cpuShare: { readonly node: number; readonly load: number }
  readonly rssBefore: number
  readonly rssPeak: number
  readonly rssAfter: number
  readonly collectedBefore: Memory
  readonly collectedAfter: Memory
  readonly loadAverage: string
  /** The node's warnings and errors, by level and message, with their counts. */
  readonly logged: ReadonlyArray<readonly [string, number, string]>
  /** Seen inside the node during the load: its request histogram's bounds and its event-loop delay. */
  readonly inside: {
    readonly refusedP50: string
    readonly refusedP99: string
    readonly admittedP99: string
    readonly loopDelayP99: string
    readonly loopDelayMax: string
    /** The collector's pauses during the load: how many, their total, and how many took longer than 25 ms. */
    readonly gc: { readonly pauses: number; readonly seconds: number; readonly long: number }
    /** The event loop's stalls during the load and what they were made of (`LoopProbe.mjs`). */
    readonly loop: LoopCounters
  }
}

/**
 * What a node logged at Warning or worse (it runs at PARLEY_LOG_LEVEL=Warning), by level and
 * message, with their counts and the first of each in full (up to 600 characters): its cause.
 */
const loggedProblems = (output: string) => {
  const counts = new Map<string, { count: number; first: string }>()
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue
    try {
      const entry = JSON.parse(line) as { readonly logLevel?: string; readonly message?: unknown }
      const key = `${entry.logLevel ?? "?"} ${String(entry.message).slice(0, 80)}`
      const known = counts.get(key)
      if (known === undefined) counts.set(key, { count: 1, first: line.slice(0, 600) })
      else known.count++
    } catch {
      // not a log line
    }
  }
  return [...counts].sort((a, b) => b[1].count - a[1].count).map(([key, { count, first }]) =>
    [key, count, first] as const
  )
}

/** The node's `/metrics` text (exempt from admission control), or "" when it does not answer within 10 s. */
const scrape = (node: ClusterNode) =>
  Effect.promise(() =>
    fetch(`${node.url}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((res) => res.text(), () => "")
  )

const TURNS_ROUTE = "/v1/runtime/sessions/:id/turns"

/** The turn route's duration histogram for a status, cumulative buckets by upper bound (seconds). */
const bucketsOf = (text: string, status: number): Map<string, number> => {
  const buckets = new Map<string, number>()
  const prefix =
    `parley_http_request_duration_seconds_bucket{method="POST",route="${TURNS_ROUTE}",status="${status}",le="`
  for (const line of text.split("\n")) {
    if (!line.startsWith(prefix)) continue
    const [le, count] = line.slice(prefix.length).split("\"} ")
    buckets.set(le!, Number(count))
  }
  return buckets
}

/**
 * Inside the node, from the request's first middleware to its answer: the
 * bucket bound under which a share `p` of the window's requests of a status
 * fell, from two scrapes of the histogram.
 */
const serverPercentile = (before: string, after: string, status: number, p: number): string => {
  const start = bucketsOf(before, status)
  const end = [...bucketsOf(after, status)].map(([le, count]) => [le, count - (start.get(le) ?? 0)] as const)
  const total = end.find(([le]) => le === "+Inf")?.[1] ?? 0
  if (total === 0) return "-"
  const bound = end.find(([, count]) => count >= p * total)?.[0]
  return bound === "+Inf" ? "> 30 s" : `<= ${Number(bound) * 1000} ms`
}

const loopDelayOf = (text: string, stat: "p99" | "max") => {
  const seconds = Number(new RegExp(`^nodejs_eventloop_delay_${stat}_seconds (\\S+)$`, "m").exec(text)?.[1] ?? NaN)
  return Number.isFinite(seconds) ? `${(seconds * 1000).toFixed(0)} ms` : "-"
}

/** A sum over every kind of the collector's pause histogram: its count, its sum, or its bucket at or below 25 ms. */
const gcFigure = (text: string, series: "_count" | "_sum" | "_bucket") => {
  let total = 0
  for (const line of text.split("\n")) {
    if (!line.startsWith(`nodejs_gc_duration_seconds${series}{`)) continue
    if (series === "_bucket" && !line.includes(`le="0.025"`)) continue
    total += Number(line.slice(line.lastIndexOf(" ") + 1))
  }
  return total
}

/** The collector's pauses between two scrapes. */
const gcPauses = (before: string, after: string) => {
  const delta = (series: "_count" | "_sum" | "_bucket") => gcFigure(after, series) - gcFigure(before, series)
  const pauses = delta("_count")
  return { pauses, seconds: delta("_sum"), long: pauses - delta("_bucket") }
}

/** A fresh node of `config`, warmed up, for the life of the scope. */
const freshNodeOf = (config: (typeof CONFIGS)[number]) => freshNode({ ...NODE_ENV, ...BOUNDS, ...config.env })

/**
 * A warmed node offered twice the peak open loop, then left to rest.
 * `yardstick`, when given, is the peak measured again (on the unbounded node)
 * just before the overload and just after the rest; the first sets the rate.
 * Without it, `peak` does.
 */
const overloadPhase = (
  config: (typeof CONFIGS)[number],
  running: Running,
  peak: number,
  yardstick: Effect.Effect<SweepPoint> | undefined
) =>
  Effect.gen(function*() {
    const { node, target } = running
    const yardstickBefore = yardstick === undefined ? undefined : yield* yardstick
    const offered = OFFERED * (yardstickBefore?.turnsPerSecond ?? peak)
    console.log(
      `${config.label}: offering ${offered.toFixed(0)} turns/s for ${OVERLOAD_SECONDS} s ` +
        `(load average ${loadAverage()})`
    )

    // The node's own rate at its turns bound (closed loop, so the gate refuses nothing), in the minutes of its
    // overload: the machines here drift by a third within an hour, so the baseline's peak is not the only yardstick.
    const bound = turnsLimitOf(yield* scrape(node))
    const ownBefore = bound > 0 ? yield* closedLoop(running, bound, SWEEP_SECONDS) : undefined
    yield* sleep(SETTLE_SECONDS)
    const before = yield* sampled(node, sleep(5))
    const rssBefore = percentile(before.samples.map((s) => s.rss), 50)
    const collectedBefore = yield* collectedMemory(node)
    const metricsBefore = yield* scrape(node)
    const cpuBefore = { node: cpuSecondsOf(node.pid), load: process.cpuUsage() }
    const loopBefore = loopCountersOf(node)
    const started = performance.now()
    const overload = yield* sampled(
      node,
      Effect.promise(() => openLoop(target, { rate: offered, seconds: OVERLOAD_SECONDS, timeoutMs: CLIENT_TIMEOUT_MS }))
    )
    // Until the last request is answered or timed out: longer than the load itself when turns wait.
    const windowSeconds = (performance.now() - started) / 1000
    const generator = process.cpuUsage(cpuBefore.load)
    const cpu = {
      node: cpuSecondsOf(node.pid) - cpuBefore.node,
      load: (generator.user + generator.system) / 1e6
    }
    const loop = loopBetween(loopBefore, loopCountersOf(node))
    const metricsAfter = yield* scrape(node)
    const rest = yield* sampled(node, sleep(REST_SECONDS))
    const rssAfter = rest.samples[rest.samples.length - 1]!.rss
    const collectedAfter = yield* collectedMemory(node)
    const own = ownBefore === undefined
      ? undefined
      : { connections: bound, before: ownBefore, after: yield* closedLoop(running, bound, SWEEP_SECONDS) }
    const yardstickAfter = yardstick === undefined ? undefined : yield* yardstick
    const answered = overload.result.samples.filter((s) => s.status === 200).length
    return {
      label: config.label,
      offered,
      own,
      yardstick: yardstickBefore === undefined || yardstickAfter === undefined
        ? undefined
        : { before: yardstickBefore, after: yardstickAfter },
      cpuPerTurn: (cpu.node * 1000) / answered,
      samples: overload.result.samples,
      clientLoopDelayP99: overload.result.clientLoopDelayP99Millis,
      cpuShare: { node: cpu.node / windowSeconds, load: cpu.load / windowSeconds },
      rssBefore,
      rssPeak: Math.max(...[...overload.samples, ...rest.samples].map((s) => s.rss)),
      rssAfter,
      collectedBefore,
      collectedAfter,
      loadAverage: loadAverage(),
      logged: loggedProblems(node.output()),
      inside: {
        refusedP50: serverPercentile(metricsBefore, metricsAfter, 503, 0.5),
        refusedP99: serverPercentile(metricsBefore, metricsAfter, 503, 0.99),
        admittedP99: serverPercentile(metricsBefore, metricsAfter, 200, 0.99),
        loopDelayP99: loopDelayOf(metricsAfter, "p99"),
        loopDelayMax: loopDelayOf(metricsAfter, "max"),
        gc: gcPauses(metricsBefore, metricsAfter),
        loop
      }
    } satisfies Phase
  })

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const ms = (millis: number) => (Number.isFinite(millis) ? `${millis.toFixed(1)} ms` : "-")
const pct = (share: number) => `${(100 * share).toFixed(1)}%`

const outcomes = (samples: ReadonlyArray<Sample>) => {
  const ok = samples.filter((s) => s.status === 200)
  const overloaded = samples.filter((s) => s.tag === "Overloaded")
  const timedOut = samples.filter((s) => s.timedOut)
  const other = samples.filter((s) => s.status !== 200 && s.tag !== "Overloaded" && !s.timedOut)
  return { ok, overloaded, timedOut, other }
}

/** 2xx answers per second in each 10 s of the load. */
const timeline = (samples: ReadonlyArray<Sample>) => {
  const buckets = Array.from({ length: Math.ceil(OVERLOAD_SECONDS / 10) }, () => 0)
  for (const s of samples) if (s.status === 200) buckets[Math.min(buckets.length - 1, Math.floor(s.due / 10_000))]!++
  return buckets.map((count) => (count / 10).toFixed(0)).join(" ")
}

const meanRate = (pair: { readonly before: SweepPoint; readonly after: SweepPoint }) =>
  (pair.before.turnsPerSecond + pair.after.turnsPerSecond) / 2

const report = (phase: Phase, sweepPeak: number) => {
  const offered = phase.offered
  const { ok, other, overloaded, timedOut } = outcomes(phase.samples)
  const total = phase.samples.length
  const goodput = ok.length / OVERLOAD_SECONDS
  const otherStatuses = [...new Set(other.map((s) => `${s.status}${s.tag === undefined ? "" : ` ${s.tag}`}`))]
  console.log(`\n${phase.label} (load average at its end ${phase.loadAverage})`)
  console.log(
    `  offered ${offered.toFixed(0)} turns/s open loop for ${OVERLOAD_SECONDS} s (${total} turns): ` +
      `${pct(ok.length / total)} answered 200, ${pct(overloaded.length / total)} refused 503 Overloaded, ` +
      `${pct(timedOut.length / total)} timed out (${CLIENT_TIMEOUT_MS / 1000} s), ${pct(other.length / total)} other` +
      (otherStatuses.length > 0 ? ` (${otherStatuses.join(", ")})` : "")
  )
  console.log(
    `  goodput ${goodput.toFixed(0)} turns/s = ${pct(goodput / sweepPeak)} of the sweep's best ` +
      `(${sweepPeak.toFixed(0)}/s); the node's CPU per answered turn ${phase.cpuPerTurn.toFixed(1)} ms`
  )
  if (phase.yardstick !== undefined) {
    const { after, before } = phase.yardstick
    console.log(
      `  the peak measured again on the unbounded node (closed loop, ${before.connections} connections, ` +
        `${YARDSTICK_SECONDS} s): ${pointText(before)} just before the overload, ${pointText(after)} after the rest; ` +
        `goodput = ${pct(goodput / meanRate(phase.yardstick))} of their mean`
    )
  }
  if (phase.own !== undefined) {
    const { after, before, connections } = phase.own
    console.log(
      `  the node's own rate at its turns bound (closed loop, ${connections} connections, ${SWEEP_SECONDS} s): ` +
        `${pointText(before)} just before the overload, ${pointText(after)} after the rest ` +
        `(${before.refused + after.refused} refused); goodput = ${pct(goodput / meanRate(phase.own))} of their mean`
    )
  }
  console.log(`  goodput by 10 s: ${timeline(phase.samples)}`)
  console.log(
    `  latency p50/p99: admitted (200) ${ms(percentile(ok.map((s) => s.millis), 50))} / ` +
      `${ms(percentile(ok.map((s) => s.millis), 99))}; refused (503) ${
        ms(percentile(overloaded.map((s) => s.millis), 50))
      } / ${ms(percentile(overloaded.map((s) => s.millis), 99))}`
  )
  console.log(
    `  inside the node (its request histogram, from the first middleware to the answer): refused p50 ` +
      `${phase.inside.refusedP50}, p99 ${phase.inside.refusedP99}; admitted p99 ${phase.inside.admittedP99}; ` +
      `event-loop delay p99 ${phase.inside.loopDelayP99}, max ${phase.inside.loopDelayMax} ` +
      `(the load's own p99: ${phase.clientLoopDelayP99.toFixed(0)} ms); ${phase.inside.gc.pauses} GC pauses, ` +
      `${(phase.inside.gc.seconds * 1000).toFixed(0)} ms in all, ${phase.inside.gc.long} longer than 25 ms`
  )
  // The load's window runs until its last request is answered or timed out: the probe's own clock gives its length.
  const { loop } = phase.inside
  const ran = pct(loop.mainRunMs / loop.at)
  console.log(
    `  the node's main thread during the load (${(loop.at / 1000).toFixed(0)} s): ran ${ran} of the time, ` +
      `waited for a CPU ${pct(loop.mainWaitMs / loop.at)}; its other threads (the collector's helpers, ` +
      `the compiler) ${(phase.cpuShare.node - loop.mainRunMs / loop.at).toFixed(2)} CPUs. ` +
      `${loop.stalls} event-loop stalls longer than 20 ms, ${loop.stallMs.toFixed(0)} ms in all: the main thread ` +
      `waited for a CPU ${pct(loop.waitMs / loop.stallMs)} of it and ran ${pct(loop.runMs / loop.stallMs)}, ` +
      `the collector's pauses ${pct(loop.gcMs / loop.stallMs)} (part of either)`
  )
  console.log(
    `  refused (503) p99 by 10 s: ${
      Array.from({ length: Math.ceil(OVERLOAD_SECONDS / 10) }, (_, i) =>
        ms(percentile(
          overloaded.filter((s) => Math.floor(s.due / 10_000) === i).map((s) => s.millis),
          99
        ))).join(" ")
    }; refused later than 50 ms: ${overloaded.filter((s) => s.millis > 50).length} of ${overloaded.length}`
  )
  const onNew = overloaded.filter((s) => s.fresh)
  const onKept = overloaded.filter((s) => !s.fresh)
  console.log(
    `  refused (503) on kept-alive connections: ${onKept.length}, p99 ${
      ms(percentile(onKept.map((s) => s.millis), 99))
    }; on connections the client opened for them: ${onNew.length}, p50 ${
      ms(percentile(onNew.map((s) => s.millis), 50))
    }, p99 ${ms(percentile(onNew.map((s) => s.millis), 99))}`
  )
  console.log(
    `  CPU during the load: the node ${phase.cpuShare.node.toFixed(2)} CPUs, the load generator ` +
      `${phase.cpuShare.load.toFixed(2)} (of ${Os.cpus().length}, shared with PostgreSQL and whatever else runs)`
  )
  console.log(
    `  RSS: before ${mb(phase.rssBefore)}, peak ${mb(phase.rssPeak)}, ${REST_SECONDS} s after the load ` +
      `${mb(phase.rssAfter)} (${pct(phase.rssAfter / phase.rssBefore - 1)} of before)`
  )
  const heap = (m: Memory) =>
    `RSS ${mb(m.rss)}, heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${
      mb(m.arrayBuffers)
    })`
  console.log(`  after a full GC: before the load ${heap(phase.collectedBefore)}; after ${heap(phase.collectedAfter)}`)
  console.log(
    `  the node's warnings and errors: ${
      phase.logged.length === 0
        ? "none"
        : phase.logged.map(([what, count, first]) => `\n    ${count} × ${what}; the first: ${first}`).join("")
    }`
  )
  return { goodput, overloaded, ok }
}

const main = Effect.gen(function*() {
  console.log(
    `overload benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}; ` +
      `load average ${loadAverage()}`
  )
  console.log(
    `  one node (the bundle, as npm start runs it), PARLEY_LOG_LEVEL=Warning, an echo Assistant, ${SESSIONS} sessions; ` +
      `the baseline node has PARLEY_MAX_TURNS_IN_FLIGHT=0 and PARLEY_MAX_REQUESTS_IN_FLIGHT=0 (no bounds), ` +
      `the second the defaults, the third the defaults on Effect's own scheduler (PARLEY_SCHEDULER_SLICE=0)` +
      (Object.keys(BOUNDS).length === 0
        ? ""
        : `; instead of the defaults: ${Object.entries(BOUNDS).map(([name, value]) => `${name}=${value}`).join(" ")}`) +
      "\n"
  )
  // OVERLOAD_PEAK (turns/s, a peak an earlier run found) leaves out the baseline node (a shorter run).
  const givenPeak = process.env.OVERLOAD_PEAK === undefined ? undefined : Number(process.env.OVERLOAD_PEAK)
  const unbounded = givenPeak === undefined ? yield* freshNodeOf(CONFIGS[0]) : undefined
  const points = unbounded === undefined ? [] : yield* sweep(unbounded)
  if (points.length > 0) {
    console.log(
      `  sweep of the unbounded node (closed loop, ${SWEEP_SECONDS} s each): ${points.map(pointText).join("; ")}`
    )
  }
  const best = fastest(points)
  const sweepPeak = best?.turnsPerSecond ?? givenPeak!
  // The peak again, at the sweep's best saturating concurrency, in the minutes of each overload (the module comment).
  const saturated = fastest(points.filter((point) => point.connections >= SATURATING))
  const yardstick = unbounded === undefined || saturated === undefined
    ? undefined
    : closedLoop(unbounded, saturated.connections, YARDSTICK_SECONDS)
  const bounded = (config: (typeof CONFIGS)[number]) =>
    Effect.scoped(
      Effect.flatMap(freshNodeOf(config), (running) => overloadPhase(config, running, sweepPeak, yardstick))
    )
  const admitted = yield* bounded(CONFIGS[1])
  // OVERLOAD_SKIP_EFFECT_SCHEDULER=1 leaves out the third node (a shorter run).
  const effectScheduler = process.env.OVERLOAD_SKIP_EFFECT_SCHEDULER === "1" ? undefined : yield* bounded(CONFIGS[2])
  const baseline = unbounded === undefined
    ? undefined
    : yield* overloadPhase(CONFIGS[0], unbounded, sweepPeak, undefined)

  if (baseline !== undefined) report(baseline, sweepPeak)
  const result = report(admitted, sweepPeak)
  if (effectScheduler !== undefined) report(effectScheduler, sweepPeak)

  const peak = admitted.yardstick === undefined ? sweepPeak : meanRate(admitted.yardstick)
  const rejectedP99 = percentile(result.overloaded.map((s) => s.millis), 99)
  const rss = admitted.rssAfter / admitted.rssBefore
  console.log(`\ntargets (admission control, at ${OFFERED}× the saturation rate)`)
  const line = (target: string, figure: string, pass: boolean) =>
    console.log(`  ${target.padEnd(62)}${figure.padEnd(26)}${verdict(pass)}`)
  line(
    admitted.yardstick === undefined
      ? "goodput >= 90% of the peak (given)"
      : "goodput >= 90% of the peak (measured again around the overload)",
    pct(result.goodput / peak),
    result.goodput >= 0.9 * peak
  )
  if (admitted.yardstick !== undefined) {
    console.log(
      `    (of the sweep's best ${SWEEP_SECONDS}-s sample, minutes earlier: ${pct(result.goodput / sweepPeak)})`
    )
  }
  line(
    "refused requests answered in <= 50 ms p99",
    result.overloaded.length === 0 ? "none refused" : ms(rejectedP99),
    result.overloaded.length > 0 && rejectedP99 <= 50
  )
  line(`RSS ${REST_SECONDS} s after the load within 20% of before`, pct(rss - 1), rss <= 1.2)
  console.log(`\nload average at the end: ${loadAverage()}`)
})

runBench(main)
