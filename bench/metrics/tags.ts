/**
 * What a request's metrics cost to update: the request counter and duration
 * histogram tagged with method, route and status, as `Metric.tagged` three
 * times (what `metricsFor` did) and through `withTags`
 * (src/observability/FixedTags.ts, what it does), alternated over five rounds
 * of 200,000 updates each, on the same series. No database, no server.
 *
 *   npm run bench:metrics
 */
import { Metric } from "effect"
import { withTags } from "../../src/observability/FixedTags.js"
import { httpRequestDuration, httpRequests } from "../../src/observability/Metrics.js"
import { verdict } from "../support/Parley.js"

const UPDATES = 200_000
const ROUNDS = 5
const tags = [["method", "POST"], ["route", "/v1/runtime/sessions/:id/turns"], ["status", "503"]] as const

const tagged = <M extends Metric.Metric<any, any, any>>(metric: M) =>
  metric.pipe(Metric.tagged(...tags[0]), Metric.tagged(...tags[1]), Metric.tagged(...tags[2]))
const arms = {
  "Metric.tagged ×3": { requests: tagged(httpRequests), duration: tagged(httpRequestDuration) },
  withTags: { requests: withTags(httpRequests, tags), duration: withTags(httpRequestDuration, tags) }
}

/** µs per request (one counter and one histogram update). */
const run = (metrics: (typeof arms)[keyof typeof arms]) => {
  const started = performance.now()
  for (let i = 0; i < UPDATES; i++) {
    metrics.requests.unsafeUpdate(1, [])
    metrics.duration.unsafeUpdate(0.003, [])
  }
  return ((performance.now() - started) * 1000) / UPDATES
}

const figures = new Map<string, Array<number>>(Object.keys(arms).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, metrics] of Object.entries(arms)) figures.get(name)!.push(run(metrics))
}
const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
console.log(
  `a request's counter and histogram, ${UPDATES.toLocaleString("en")} updates × ${ROUNDS} rounds, alternated:`
)
for (const [name, xs] of figures) {
  console.log(
    `  ${name.padEnd(18)} median ${median(xs).toFixed(2)} µs per request (${xs.map((x) => x.toFixed(2)).join(", ")})`
  )
}
const before = median(figures.get("Metric.tagged ×3")!)
const after = median(figures.get("withTags")!)
console.log(`withTags at least 10× cheaper: ${(before / after).toFixed(0)}× ${verdict(before >= 10 * after)}`)
