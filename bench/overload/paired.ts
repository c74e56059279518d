/**
 * Goodput under twice the load against the peak, in the same minutes: fresh
 * nodes side by side, one without bounds and one or more with admission
 * control, and rounds in which each bounded node in turn gets
 *
 *   1. the unbounded node closed loop at `PAIRED_CONNECTIONS` (the peak), then
 *   2. the bounded node open loop (`OpenLoop.ts`) at twice that peak, each
 *      turn with its own key,
 *
 * `PAIRED_SECONDS` each, while the other nodes idle. The machines here change
 * speed by a third within minutes (a node's CPU per turn moved from 5.8 to 10
 * ms within one sweep), so `bench:overload`'s peak, taken before a 60-s
 * overload, and the overload's goodput are not measured on the same machine.
 * Here each overload window has a peak window just before it; the goodput
 * counts the 200s answered within the window. Each window prints its node's
 * CPU per answered turn: a window where the overloaded node's is higher than
 * the peak's is the cost of refusing, or the machine. The bounded nodes take
 * their turns in a rotating order, so none is always the one after a rest.
 *
 *   npm run bench:overload:paired
 *   PAIRED_BOUNDS=24,32,48 npm run bench:overload:paired
 *   PAIRED_FLAGS="|--v8-pool-size=4" npm run bench:overload:paired
 *
 * PAIRED_ROUNDS (6), PAIRED_SECONDS (10), PAIRED_CONNECTIONS (32, the
 * unbounded node's closed-loop concurrency), PAIRED_BOUNDS (the turns bounds
 * to compare, one node each: `PARLEY_MAX_TURNS_IN_FLIGHT`), PAIRED_FLAGS (Node
 * flags to compare, one node per `|`-separated set, after the nodes' own
 * `NODE_FLAGS`; an empty set is the defaults). With neither, one node with the
 * defaults.
 */
import { Effect } from "effect"
import * as Os from "node:os"
import { benchNodeEnv, loadAverage, verdict } from "../support/Parley.js"
import { cpuMillisOf } from "../support/ProcessCpu.js"
import { runBench } from "../support/Run.js"
import { percentile } from "../turns/Load.js"
import { closedLoop, freshNode, pointText, SESSIONS, UNBOUNDED } from "./Nodes.js"
import { openLoop } from "./OpenLoop.js"

const ROUNDS = Number(process.env.PAIRED_ROUNDS ?? 6)
const SECONDS = Number(process.env.PAIRED_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.PAIRED_CONNECTIONS ?? 32)
/** A bounded node to compare: its name, its environment beyond the run's, and its Node flags beyond the nodes' own. */
interface Variant {
  readonly name: string
  readonly env: Record<string, string>
  readonly flags: ReadonlyArray<string>
}

const flagsVariant = (set: string): Variant => {
  const flags = set.trim().split(/\s+/).filter((flag) => flag.length > 0)
  return { name: flags.length === 0 ? "defaults" : flags.join(" "), env: {}, flags }
}

const VARIANTS: ReadonlyArray<Variant> = process.env.PAIRED_BOUNDS
  ? process.env.PAIRED_BOUNDS.split(",").map((bound) => ({
    name: `bound ${Number(bound)}`,
    env: { PARLEY_MAX_TURNS_IN_FLIGHT: String(Number(bound)) },
    flags: []
  }))
  : process.env.PAIRED_FLAGS !== undefined
  ? process.env.PAIRED_FLAGS.split("|").map(flagsVariant)
  : [flagsVariant("")]
const OFFERED = 2
const CLIENT_TIMEOUT_MS = 10_000

const pct = (share: number) => `${(100 * share).toFixed(1)}%`

/** One bounded node's windows, summed over the rounds. */
interface Tally {
  peak: number
  goodput: number
  admitted: Array<number>
  refused: Array<number>
  /** Refusals on connections the client had kept alive (not opened for them). */
  refusedKept: Array<number>
}

const main = Effect.gen(function*() {
  console.log(
    `paired overload benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}; ` +
      `load average ${loadAverage()}; ${SESSIONS} sessions of an echo Assistant on each node, ${ROUNDS} rounds of ` +
      `${SECONDS} s + ${SECONDS} s for each of ${VARIANTS.map((variant) => variant.name).join(", ")}\n`
  )
  const env = benchNodeEnv()
  const unbounded = yield* freshNode({ ...env, ...UNBOUNDED })
  const bounded = []
  for (const variant of VARIANTS) {
    const node = yield* freshNode({ ...env, ...variant.env }, variant.flags)
    bounded.push({ variant, node, tally: { peak: 0, goodput: 0, admitted: [], refused: [], refusedKept: [] } as Tally })
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (let k = 0; k < bounded.length; k++) {
      const { node, tally, variant } = bounded[(round - 1 + k) % bounded.length]!
      const peak = yield* closedLoop(unbounded, CONNECTIONS, SECONDS)
      const rate = OFFERED * peak.turnsPerSecond
      const cpuBefore = cpuMillisOf(node.node.pid)
      const overload = yield* Effect.promise(() =>
        openLoop(node.target, { rate, seconds: SECONDS, timeoutMs: CLIENT_TIMEOUT_MS })
      )
      const answered = overload.samples.filter((s) => s.status === 200)
      const inWindow = answered.filter((s) => s.due + s.millis <= SECONDS * 1000).length
      const refused = overload.samples.filter((s) => s.tag === "Overloaded")
      const other = overload.samples.length - answered.length - refused.length
      const cpuPerTurn = (cpuMillisOf(node.node.pid) - cpuBefore) / answered.length
      const goodput = inWindow / SECONDS
      tally.peak += peak.turnsPerSecond
      tally.goodput += goodput
      tally.admitted.push(...answered.map((s) => s.millis))
      tally.refused.push(...refused.map((s) => s.millis))
      tally.refusedKept.push(...refused.filter((s) => !s.fresh).map((s) => s.millis))
      console.log(
        `  round ${round}, ${variant.name}: peak ${pointText(peak)} | offered ${rate.toFixed(0)}/s: goodput ${
          goodput.toFixed(0)
        }/s ${cpuPerTurn.toFixed(1)} ms CPU/turn, ${refused.length} refused, ${other} other | ${
          pct(goodput / peak.turnsPerSecond)
        }`
      )
    }
  }
  console.log("")
  for (const { tally, variant } of bounded) {
    const share = tally.goodput / tally.peak
    console.log(
      `  ${variant.name}: goodput >= 90% of the peak in the same minutes`.padEnd(64) + `${pct(share)}`.padEnd(12) +
        verdict(share >= 0.9) +
        `   admitted p50 ${percentile(tally.admitted, 50).toFixed(0)} p99 ${
          percentile(tally.admitted, 99).toFixed(0)
        } ms, refused p99 ${percentile(tally.refused, 99).toFixed(0)} ms (on kept-alive connections ${
          percentile(tally.refusedKept, 99).toFixed(0)
        } ms)`
    )
  }
  console.log(`load average at the end: ${loadAverage()}`)
})

runBench(main)
