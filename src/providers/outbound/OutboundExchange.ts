/**
 * One request and its answer over the guarded agents, without redirects:
 * the body is read up to `maxBytes` and the connection dropped past it.
 * Interrupting the effect (a time-out) destroys the request.
 */
import { Effect } from "effect"
import * as Http from "node:http"
import * as Https from "node:https"
import {
  OutboundConnectionFailed,
  type OutboundFailure,
  OutboundHostNotFound,
  OutboundRefused,
  OutboundResponseTooLarge
} from "../../domain/outbound/OutboundFailure.js"
import { type GuardedAgents, OutboundRefusedError } from "./GuardedAgents.js"

/** An answer as received. */
export interface RawResponse {
  readonly status: number
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
}

/** One request of an exchange. */
export interface ExchangeRequest {
  readonly url: URL
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | null
  readonly maxBytes: number
}

const NOT_FOUND = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_FAIL", "EAI_NONAME"])

const failureOf = (url: URL, error: unknown): OutboundFailure => {
  const cause = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error
  if (cause instanceof OutboundRefusedError) {
    return new OutboundRefused({ host: url.host, address: cause.address, reason: cause.reason, message: cause.message })
  }
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  if (code !== undefined && NOT_FOUND.has(code)) {
    return new OutboundHostNotFound({ host: url.host, message: `${url.hostname} does not resolve (${code})` })
  }
  return new OutboundConnectionFailed({
    host: url.host,
    message: `the connection to ${url.host} failed (${code ?? (cause as Error | undefined)?.message ?? "unknown"})`
  })
}

const headersOf = (message: Http.IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return headers
}

/** Sends one request and reads its answer. */
export const exchange = (
  agents: GuardedAgents,
  request: ExchangeRequest
): Effect.Effect<RawResponse, OutboundFailure> =>
  Effect.async<RawResponse, OutboundFailure>((resume) => {
    const { url } = request
    const secure = url.protocol === "https:"
    const outgoing = (secure ? Https : Http).request(url, {
      method: request.method,
      headers: request.body === null ? request.headers : { ...request.headers, "content-length": request.body.length },
      agent: secure ? agents.https : agents.http
    })
    let settled = false
    const settle = (effect: Effect.Effect<RawResponse, OutboundFailure>) => {
      if (settled) return
      settled = true
      resume(effect)
    }
    outgoing.on("error", (error) => settle(Effect.fail(failureOf(url, error))))
    outgoing.on("response", (incoming) => {
      const status = incoming.statusCode ?? 0
      const headers = headersOf(incoming)
      const chunks: Array<Buffer> = []
      let size = 0
      const tooLarge = () => {
        const head = new Uint8Array(Buffer.concat(chunks).subarray(0, request.maxBytes))
        settle(Effect.fail(
          new OutboundResponseTooLarge({
            host: url.host,
            limitBytes: request.maxBytes,
            status,
            headers,
            head,
            message: `the answer of ${url.host} is larger than ${request.maxBytes} bytes`
          })
        ))
        outgoing.destroy()
      }
      if (Number(headers["content-length"] ?? 0) > request.maxBytes) return tooLarge()
      incoming.on("data", (chunk: Buffer) => {
        if (settled) return
        size += chunk.length
        chunks.push(chunk)
        if (size > request.maxBytes) tooLarge()
      })
      incoming.on("end", () => settle(Effect.succeed({ status, headers, body: new Uint8Array(Buffer.concat(chunks)) })))
      incoming.on("error", (error) => settle(Effect.fail(failureOf(url, error))))
    })
    outgoing.end(request.body ?? undefined)
    return Effect.sync(() => {
      settled = true
      outgoing.destroy()
    })
  })
