/**
 * What a copy of a fiber's services costs, made as Effect makes it
 * (`new Map(map)`) and as the bundle makes it (`scripts/mapCopies.mjs`:
 * `forEach` into a new Map): microseconds per copy and the collections each
 * way causes, for a map of 120 entries (a Parley node's context). One
 * process, the two ways alternating, each timed after the other has run.
 *
 *   node --max-semi-space-size=32 bench/overload/mapCopy.mjs
 */
import { PerformanceObserver } from "node:perf_hooks"

const ENTRIES = 120
const COPIES = 200_000
const ROUNDS = 3

const source = new Map()
for (let i = 0; i < ENTRIES; i++) source.set(`service/${i}`, { i })

const ways = {
  "new Map(map)": (map) => new Map(map),
  "forEach": (map) => {
    const copy = new Map()
    map.forEach((value, key) => {
      copy.set(key, value)
    })
    return copy
  }
}

let collections = 0
new PerformanceObserver((list) => {
  collections += list.getEntries().length
}).observe({ entryTypes: ["gc"] })

/** Lets the observer hear of the collections so far. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

const totals = Object.fromEntries(Object.keys(ways).map((name) => [name, { micros: 0, collections: 0 }]))
let sink = 0
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, copy] of Object.entries(ways)) {
    await settle()
    collections = 0
    const started = performance.now()
    for (let i = 0; i < COPIES; i++) sink += copy(source).size
    const micros = ((performance.now() - started) * 1000) / COPIES
    await settle()
    totals[name].micros += micros / ROUNDS
    totals[name].collections += collections / ROUNDS
  }
}
if (sink !== ROUNDS * Object.keys(ways).length * COPIES * ENTRIES) throw new Error("a copy lost entries")

console.log(`map copies: ${ENTRIES} entries, ${COPIES} copies a way, ${ROUNDS} rounds, Node ${process.version}`)
const baseline = totals["new Map(map)"]
for (const [name, total] of Object.entries(totals)) {
  console.log(
    `  ${name.padEnd(14)} ${total.micros.toFixed(2)} µs a copy, ${total.collections.toFixed(0)} collections` +
      ` (${((100 * total.collections) / baseline.collections).toFixed(0)}% of Effect's way)`
  )
}
