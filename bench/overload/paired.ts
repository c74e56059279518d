/**
 * Goodput under twice the load against the peak, in the same minutes: two
 * fresh nodes side by side, one without bounds and one with admission
 * control (the defaults), and rounds that alternate
 *
 *   1. the unbounded node closed loop at `PAIRED_CONNECTIONS` (the peak), then
 *   2. the bounded node open loop (`OpenLoop.ts`) at twice that peak, each
 *      turn with its own key,
 *
 * `PAIRED_SECONDS` each, while the other node idles. The machines here change
 * speed by a third within minutes (a node's CPU per turn moved from 5.8 to 10
 * ms within one sweep), so `bench:overload`'s peak, taken before a 60-s
 * overload, and the overload's goodput are not measured on the same machine.
 * Here each overload window has a peak window beside it; the goodput counts the
 * 200s answered within the window. Each node's CPU per answered turn is printed
 * with it: a window where the overloaded node's is higher than the peak's is
 * the cost of refusing, or the machine.
 *
 *   npm run bench:overload:paired
 *
 * PAIRED_ROUNDS (6), PAIRED_SECONDS (10), PAIRED_CONNECTIONS (32, the
 * unbounded node's closed-loop concurrency).
 */
import { Effect } from "effect"
import * as Os from "node:os"
import { benchNodeEnv, loadAverage, verdict } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { runBench } from "../support/Run.js"
import { closedLoop, freshNode, pointText, SESSIONS, UNBOUNDED } from "./Nodes.js"
import { openLoop } from "./OpenLoop.js"

const ROUNDS = Number(process.env.PAIRED_ROUNDS ?? 6)
const SECONDS = Number(process.env.PAIRED_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.PAIRED_CONNECTIONS ?? 32)
const OFFERED = 2
const CLIENT_TIMEOUT_MS = 10_000

const pct = (share: number) => `${(100 * share).toFixed(1)}%`

const main = Effect.gen(function*() {
  console.log(
    `paired overload benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}; ` +
      `load average ${loadAverage()}; ${SESSIONS} sessions of an echo Assistant on each node, ${ROUNDS} rounds of ` +
      `${SECONDS} s + ${SECONDS} s\n`
  )
  const env = benchNodeEnv()
  const unbounded = yield* freshNode({ ...env, ...UNBOUNDED })
  const bounded = yield* freshNode(env)
  let peakSum = 0
  let goodputSum = 0
  for (let round = 1; round <= ROUNDS; round++) {
    const peak = yield* closedLoop(unbounded, CONNECTIONS, SECONDS)
    const rate = OFFERED * peak.turnsPerSecond
    const cpuBefore = cpuMillisOf(bounded.node.pid)
    const overload = yield* Effect.promise(() =>
      openLoop(bounded.target, { rate, seconds: SECONDS, timeoutMs: CLIENT_TIMEOUT_MS })
    )
    const answered = overload.samples.filter((s) => s.status === 200)
    const inWindow = answered.filter((s) => s.due + s.millis <= SECONDS * 1000).length
    const refused = overload.samples.filter((s) => s.tag === "Overloaded").length
    const other = overload.samples.length - answered.length - refused
    const cpuPerTurn = (cpuMillisOf(bounded.node.pid) - cpuBefore) / answered.length
    const goodput = inWindow / SECONDS
    peakSum += peak.turnsPerSecond
    goodputSum += goodput
    console.log(
      `  round ${round}: peak ${pointText(peak)} | offered ${rate.toFixed(0)}/s: goodput ${goodput.toFixed(0)}/s ` +
        `${cpuPerTurn.toFixed(1)} ms CPU/turn, ${refused} refused, ${other} other | ${
          pct(goodput / peak.turnsPerSecond)
        }`
    )
  }
  const share = goodputSum / peakSum
  console.log(
    `\n  goodput >= 90% of the peak in the same minutes`.padEnd(64) + `${pct(share)}`.padEnd(12) + verdict(share >= 0.9)
  )
  console.log(`load average at the end: ${loadAverage()}`)
})

runBench(main)
