/**
 * Turns under load with autocannon: `connections` keep-alive connections,
 * split over the nodes' URLs (one autocannon instance per node), each request
 * a `POST /v1/runtime/sessions/{id}/turns` to the next session round-robin,
 * with an idempotency key of its own. Latencies are collected from every
 * instance's responses, so percentiles over several nodes are exact.
 */
import autocannon from "autocannon"
import * as Crypto from "node:crypto"

/** Where turns go and as whom. */
export interface Target {
  readonly urls: ReadonlyArray<string>
  readonly token: string
  readonly sessions: ReadonlyArray<string>
}

/** What one load run saw. */
export interface LoadResult {
  readonly seconds: number
  readonly ok: number
  /** Answers other than 2xx, connection errors and time-outs. */
  readonly failed: number
  /** Response times of the 2xx answers, in ms. */
  readonly latencies: ReadonlyArray<number>
}

export const percentile = (samples: ReadonlyArray<number>, p: number): number => {
  if (samples.length === 0) return NaN
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** `total` connections over `parts` instances, as evenly as can be (none gets 0 unless `total < parts`). */
const split = (total: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0))

export const load = (target: Target, connections: number, seconds: number): Promise<LoadResult> => {
  const run = Crypto.randomBytes(4).toString("hex")
  let next = 0
  const latencies: Array<number> = []
  let ok = 0
  const setupRequest = (request: autocannon.Request): autocannon.Request => {
    const n = next++
    const session = target.sessions[n % target.sessions.length]!
    return {
      ...request,
      method: "POST",
      path: `/v1/runtime/sessions/${session}/turns`,
      headers: {
        authorization: `Bearer ${target.token}`,
        "content-type": "application/json",
        "idempotency-key": `bench-${run}-${n}`
      },
      body: JSON.stringify({ text: `hello ${n}` })
    }
  }
  const shares = split(connections, target.urls.length)
  const runs = target.urls.flatMap((url, i) =>
    shares[i] === 0 ? [] : [
      new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          { url, connections: shares[i]!, duration: seconds, requests: [{ setupRequest }] },
          (error, result) => (error ? reject(error) : resolve(result))
        )
        instance.on("response", (_client, status, _bytes, millis) => {
          if (status >= 200 && status < 300) {
            ok++
            latencies.push(millis)
          }
        })
      })
    ]
  )
  return Promise.all(runs).then((results) => ({
    seconds,
    ok,
    failed: results.reduce((sum, result) => sum + result.non2xx + result.errors, 0),
    latencies
  }))
}
