/**
 * Open-loop load: turns sent at a fixed arrival rate whatever becomes of the
 * earlier ones, as many independent clients would send them, each with its
 * own `Idempotency-Key` and a client time-out after which it gives up (and
 * closes its connection). A closed-loop tool (autocannon) slows down with the
 * server and so never shows what an overloaded node does; this one does not.
 * Latency is measured from the moment a request was due, not from when it
 * left, so a client that fell behind does not hide the delay
 * (coordinated omission).
 */
import * as Crypto from "node:crypto"
import * as Http from "node:http"
import { monitorEventLoopDelay } from "node:perf_hooks"
import type { Target } from "../turns/Load.js"

/** What became of one request. */
export interface Sample {
  /** When it was due, in ms from the start of the load. */
  readonly due: number
  /** The HTTP status, or 0 when the client gave up (time-out) or the connection failed. */
  readonly status: number
  /** The error's `_tag` when the body had one (`Overloaded`, `NotReady`, ...). */
  readonly tag: string | undefined
  readonly timedOut: boolean
  /**
   * Sent on a connection opened for it (none of the client's was free) rather
   * than on a kept-alive one: a busy node accepts one new connection per turn
   * of its event loop (`accepts.mjs`), so these wait longer.
   */
  readonly fresh: boolean
  /** From when it was due to its answer (or to the time-out), in ms. */
  readonly millis: number
}

/** Every request's sample, and how late the client's own event loop ran (its share of the latencies). */
export interface OpenLoopResult {
  readonly samples: ReadonlyArray<Sample>
  readonly clientLoopDelayP99Millis: number
}

export interface OpenLoopOptions {
  readonly rate: number
  readonly seconds: number
  readonly timeoutMs: number
}

/** How often the sender catches up with the schedule; requests due in between leave together. */
const TICK_MS = 5

const tagOf = (body: string): string | undefined => {
  try {
    const json = JSON.parse(body) as { _tag?: unknown }
    return typeof json._tag === "string" ? json._tag : undefined
  } catch {
    return undefined
  }
}

/**
 * Sends `rate` turns per second for `seconds`, round-robin over the target's
 * sessions and nodes; resolves with every request's sample once each has been
 * answered or has timed out.
 */
export const openLoop = (target: Target, options: OpenLoopOptions): Promise<OpenLoopResult> => {
  // One socket per request in flight, reused when free: the server sees as many connections as there are clients waiting.
  const agent = new Http.Agent({ keepAlive: true, maxSockets: Infinity })
  const run = Crypto.randomBytes(4).toString("hex")
  const total = Math.round(options.rate * options.seconds)
  const samples: Array<Sample> = []
  const start = performance.now()
  let sent = 0
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()

  return new Promise((resolve) => {
    const done = () => {
      if (samples.length === total) {
        agent.destroy()
        loopDelay.disable()
        resolve({ samples, clientLoopDelayP99Millis: loopDelay.percentile(99) / 1e6 })
      }
    }
    const send = (n: number) => {
      const due = (n * 1000) / options.rate
      const url = new URL(target.urls[n % target.urls.length]!)
      const session = target.sessions[n % target.sessions.length]!
      const body = JSON.stringify({ text: `hello ${n}` })
      let finished = false
      let fresh = false
      const finish = (status: number, tag: string | undefined, timedOut: boolean) => {
        if (finished) return
        finished = true
        clearTimeout(timer)
        samples.push({ due, status, tag, timedOut, fresh, millis: performance.now() - start - due })
        done()
      }
      const request = Http.request({
        agent,
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: `/v1/runtime/sessions/${session}/turns`,
        headers: {
          authorization: `Bearer ${target.token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "idempotency-key": `overload-${run}-${n}`
        }
      }, (response) => {
        let text = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (text += chunk))
        response.on("end", () => finish(response.statusCode ?? 0, tagOf(text), false))
        response.on("error", () => finish(0, undefined, false))
      })
      // The client gives up: it closes the connection, as a browser or an SDK with a time-out does.
      const timer = setTimeout(() => {
        finish(0, undefined, true)
        request.destroy()
      }, Math.max(1, options.timeoutMs - (performance.now() - start - due)))
      request.on("error", () => finish(0, undefined, false))
      request.once("socket", (socket) => {
        fresh = socket.connecting
      })
      request.end(body)
    }
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * options.rate) + 1)
      while (sent < due) send(sent++)
      if (sent === total) clearInterval(tick)
    }, TICK_MS)
  })
}
