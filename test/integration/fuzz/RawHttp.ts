/**
 * Requests exactly as the fuzz suite means them, over `node:http`: the path
 * goes on the wire as written (`..` and `%00` included, where a URL parser
 * would tidy them away) and the body as raw bytes. Each request has its own
 * connection and a deadline; past it the request is abandoned and reported as
 * unanswered.
 */
import { Effect } from "effect"
import * as Http from "node:http"

/** One request on the wire. */
export interface RawRequest {
  readonly method: string
  /** Path and query, already encoded as they are to be sent. */
  readonly target: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Uint8Array | undefined
}

/** What came back: an answer, no answer in time, or a broken exchange. */
export type RawOutcome =
  | {
    readonly _tag: "Answered"
    readonly status: number
    readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
    readonly text: string
    readonly millis: number
  }
  | { readonly _tag: "TimedOut"; readonly millis: number }
  | { readonly _tag: "Broken"; readonly error: string; readonly millis: number }
  | { readonly _tag: "NotSent"; readonly error: string }

/** Send `request` to `port` on the loopback; wait at most `deadlineMillis` for the whole answer. */
export const send = (port: number, request: RawRequest, deadlineMillis: number): Effect.Effect<RawOutcome> =>
  Effect.async<RawOutcome>((resume) => {
    const started = performance.now()
    const elapsed = () => Math.round(performance.now() - started)
    let done = false
    const finish = (outcome: RawOutcome) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resume(Effect.succeed(outcome))
    }
    let outgoing: Http.ClientRequest | undefined
    const timer = setTimeout(() => {
      finish({ _tag: "TimedOut", millis: elapsed() })
      outgoing?.destroy()
    }, deadlineMillis)
    try {
      outgoing = Http.request({
        host: "127.0.0.1",
        port,
        method: request.method,
        path: request.target,
        headers: {
          ...request.headers,
          ...(request.body === undefined ? {} : { "content-length": String(request.body.byteLength) })
        },
        agent: false
      }, (response) => {
        const chunks: Array<Buffer> = []
        let size = 0
        response.on("data", (chunk: Buffer) => {
          // Only the beginning is kept: it is for the failure message.
          if (size < 4_096) chunks.push(chunk)
          size += chunk.length
        })
        response.on("end", () =>
          finish({
            _tag: "Answered",
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8").slice(0, 4_096),
            millis: elapsed()
          }))
        response.on("error", (error) => finish({ _tag: "Broken", error: error.message, millis: elapsed() }))
      })
    } catch (error) {
      // Node refuses to send some requests at all (a character it cannot put in a header): nothing reached Parley.
      done = true
      clearTimeout(timer)
      resume(Effect.succeed<RawOutcome>({ _tag: "NotSent", error: String(error) }))
      return
    }
    outgoing.on("error", (error) => finish({ _tag: "Broken", error: error.message, millis: elapsed() }))
    if (request.body !== undefined) outgoing.write(request.body)
    outgoing.end()
    return Effect.sync(() => {
      done = true
      clearTimeout(timer)
      outgoing.destroy()
    })
  })
