/**
 * What a turn allocates: one fresh node (the bundle, its default flags) at
 * its turns bound, closed loop, with V8's sampling heap profiler counting
 * every allocation for `ALLOCATION_SECONDS` of the load (collected objects
 * included: `AllocationProbe.mjs`). Prints the turns, the MB allocated per
 * turn, where it was allocated (by module of the bundle, and by function),
 * and the share allocated while building Maps (`Map`, `set`, and the Map
 * iterator's `next`): Effect's copies of a fiber's services
 * (`scripts/mapCopies.mjs`). Then, under a second load of the same shape,
 * what is still alive after a full collection at the end of `HELD_SECONDS`
 * (the probe's second round): what the turns in flight hold, which a
 * scavenge copies, per turn in flight, and the share of it in Map tables
 * (`scripts/layeredMap.mjs`). An allocation count is not a timing: it moves
 * with the work a turn does, not with how busy the machine is.
 *
 *   npm run bench:allocation
 *
 * ALLOCATION_CONNECTIONS (32, the default turns bound), ALLOCATION_SECONDS (15).
 */
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { bundle } from "../../scripts/bundle.mjs"
import { freshNode } from "../overload/Nodes.js"
import { benchNodeEnv, loadAverage } from "../support/Parley.js"
import { runBench } from "../support/Run.js"
import { load } from "../turns/Load.js"

const CONNECTIONS = Number(process.env.ALLOCATION_CONNECTIONS ?? 32)
const SECONDS = Number(process.env.ALLOCATION_SECONDS ?? 15)
/** Load before the sampling starts and after it stops. */
const MARGIN_SECONDS = 5
/** How long the second round samples what stays alive. */
const HELD_SECONDS = 8

/** One node of V8's sampling heap profile. */
interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly selfSize: number
  readonly children: ReadonlyArray<ProfileNode>
}

/**
 * The module each line of the bundle comes from: esbuild heads each with a
 * `// path` comment, relative to where it was built; shown from `node_modules/`
 * or `src/` on.
 */
const moduleLines = (): (line: number) => string => {
  const heads: Array<readonly [number, string]> = []
  Fs.readFileSync(bundle, "utf8").split("\n").forEach((text, line) => {
    if (text.startsWith("// ")) heads.push([line, text.slice(3).replace(/^.*?(?=node_modules\/|src\/)/, "")])
  })
  return (line) => {
    let low = 0
    let high = heads.length - 1
    let found = "(bundle)"
    while (low <= high) {
      const middle = (low + high) >> 1
      if (heads[middle]![0] <= line) {
        found = heads[middle]![1]
        low = middle + 1
      } else high = middle - 1
    }
    return found
  }
}

const MAP_BUILDING = new Set(["Map", "set", "next"])
/** Where a Map's table is allocated (a new Map, one that grows, one rebuilt after deletes). */
const MAP_TABLES = new Set(["Map", "set", "delete"])

/** Every node of a profile, depth first. */
const nodesOf = function*(node: ProfileNode): Generator<ProfileNode> {
  yield node
  for (const child of node.children) yield* nodesOf(child)
}

const main = Effect.gen(function*() {
  const profile = Path.join(Os.tmpdir(), `parley-allocation-${process.pid}.heapprofile`)
  const probe = fileURLToPath(new URL("./AllocationProbe.mjs", import.meta.url))
  console.log(
    `allocation benchmark: ${Os.cpus().length} CPUs, Node ${process.version}; load average ${loadAverage()}; ` +
      `one node at ${CONNECTIONS} connections, closed loop, sampled for ${SECONDS} s`
  )
  const running = yield* freshNode({
    ...benchNodeEnv(),
    NODE_OPTIONS: `--import ${probe}`,
    ALLOCATION_PROFILE: profile
  })
  const loading = load(running.target, CONNECTIONS, SECONDS + 2 * MARGIN_SECONDS)
  yield* Effect.sleep(`${MARGIN_SECONDS} seconds`)
  running.node.kill("SIGUSR2")
  const started = performance.now()
  yield* Effect.sleep(`${SECONDS} seconds`)
  running.node.kill("SIGUSR2")
  const seconds = (performance.now() - started) / 1000
  const result = yield* Effect.promise(() => loading)
  // The second round, under a load of its own (its denser sampling slows the node): what stays alive.
  const holding = load(running.target, CONNECTIONS, HELD_SECONDS + 2 * MARGIN_SECONDS)
  yield* Effect.sleep(`${MARGIN_SECONDS} seconds`)
  running.node.kill("SIGUSR2")
  yield* Effect.sleep(`${HELD_SECONDS} seconds`)
  running.node.kill("SIGUSR2")
  yield* Effect.promise(() => holding)
  // The profiles are written once the node has stopped sampling.
  yield* Effect.sleep("2 seconds")
  // A closed loop at a steady rate: the sampled window's turns at the load's mean rate.
  const turns = (result.ok / result.seconds) * seconds

  const moduleOf = moduleLines()
  const byModule = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let total = 0
  let mapBuilding = 0
  const visit = (node: ProfileNode) => {
    const frame = node.callFrame
    const inBundle = frame.url.endsWith("main.js")
    const module = inBundle ? moduleOf(frame.lineNumber) : frame.url === "" ? "(V8 built-ins)" : frame.url
    const name = `${frame.functionName || "(anonymous)"} ${inBundle ? module : module.split("/").pop()}`
    total += node.selfSize
    if (frame.url === "" && MAP_BUILDING.has(frame.functionName)) mapBuilding += node.selfSize
    byModule.set(module, (byModule.get(module) ?? 0) + node.selfSize)
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize)
    node.children.forEach(visit)
  }
  visit(JSON.parse(Fs.readFileSync(profile, "utf8")).head)
  Fs.rmSync(profile, { force: true })
  let held = 0
  let heldInMaps = 0
  for (const node of nodesOf(JSON.parse(Fs.readFileSync(`${profile}.held`, "utf8")).head)) {
    held += node.selfSize
    if (node.callFrame.url === "" && MAP_TABLES.has(node.callFrame.functionName)) heldInMaps += node.selfSize
  }
  Fs.rmSync(`${profile}.held`, { force: true })

  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
  const share = (bytes: number) => `${((100 * bytes) / total).toFixed(1)}%`
  const top = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count)
  console.log(
    `  load: ${result.ok} turns answered (${(result.ok / result.seconds).toFixed(0)}/s), ${result.failed} not; ` +
      `sampled ${seconds.toFixed(1)} s, about ${turns.toFixed(0)} turns`
  )
  console.log(`  allocated while sampled: ${mb(total)}, ${(total / turns / 1e6).toFixed(2)} MB a turn`)
  console.log(`  building Maps (Map, set, the iterator's next): ${mb(mapBuilding)}, ${share(mapBuilding)}`)
  console.log(
    `  held after a full GC at the end of ${HELD_SECONDS} s more (allocated then and still alive, ${CONNECTIONS} turns in flight): ` +
      `${mb(held)}, ${(held / CONNECTIONS / 1024).toFixed(0)} KB a turn in flight; in Map tables (Map, set, delete) ` +
      `${mb(heldInMaps)}, ${((100 * heldInMaps) / held).toFixed(1)}%`
  )
  console.log("  by module:")
  for (const [module, bytes] of top(byModule, 10)) console.log(`    ${share(bytes).padStart(6)} ${module}`)
  console.log("  by function:")
  for (const [name, bytes] of top(byFunction, 12)) console.log(`    ${share(bytes).padStart(6)} ${name}`)
})

runBench(main)
