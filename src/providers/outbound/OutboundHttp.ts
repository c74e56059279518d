/**
 * Parley's one way to call an address a user chose (an HTTP tool, a
 * redirect it answers, later an LLM base URL): through the guarded agents,
 * so the address rule holds at the first request and at every redirect,
 * with a time-out over the whole exchange, a cap on the body read (reading
 * stops past it) and at most `maxRedirects` redirects, followed by hand.
 * Failures are typed (`domain/outbound/OutboundFailure`) and name only the
 * host: never a header, a query or a body.
 */
import { Effect } from "effect"
import { OutboundAllowedHosts } from "../../config/Settings.js"
import {
  type OutboundFailure,
  OutboundRefused,
  OutboundTimedOut,
  OutboundTooManyRedirects
} from "../../domain/outbound/OutboundFailure.js"
import { makeGuardedAgents } from "./GuardedAgents.js"
import { exchange, type RawResponse } from "./OutboundExchange.js"

/** One outbound request. */
export interface OutboundRequest {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | null
  readonly timeoutMs: number
  readonly maxResponseBytes: number
  /** How many redirects to follow (3 unless told). */
  readonly maxRedirects?: number
  /** Whether a redirect may go to this URL (by default: any http(s) URL the address rule allows). */
  readonly mayRedirectTo?: (url: URL) => boolean
  /** Header names (lower case) dropped when a redirect leaves the first host: those that carry credentials. */
  readonly credentialHeaders?: ReadonlyArray<string>
}

/** The final answer, after any redirects. */
export interface OutboundResponse extends RawResponse {
  /** The URL that answered. */
  readonly url: URL
  readonly redirects: number
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

export class OutboundHttp extends Effect.Service<OutboundHttp>()("parley/providers/outbound/OutboundHttp", {
  scoped: Effect.gen(function*() {
    const allowList = yield* OutboundAllowedHosts
    const agents = yield* Effect.acquireRelease(
      Effect.sync(() => makeGuardedAgents(allowList)),
      (made) => Effect.sync(() => (made.http.destroy(), made.https.destroy()))
    )

    const follow = (request: OutboundRequest) =>
      Effect.gen(function*() {
        const limit = request.maxRedirects ?? 3
        const first = request.url
        let url = first
        let method = request.method
        let body = request.body
        let headers: Record<string, string> = { ...request.headers }
        for (let redirects = 0;; redirects++) {
          const answer = yield* exchange(agents, { url, method, headers, body, maxBytes: request.maxResponseBytes })
          const location = answer.headers["location"]
          if (!REDIRECTS.has(answer.status) || location === undefined) return { ...answer, url, redirects }
          if (redirects === limit) {
            return yield* new OutboundTooManyRedirects({
              host: url.host,
              limit,
              message: `${first.host} redirected more than ${limit} times`
            })
          }
          const next = URL.canParse(location, url.href) ? new URL(location, url) : undefined
          if (next === undefined) return { ...answer, url, redirects }
          if (next.protocol !== "http:" && next.protocol !== "https:") {
            return yield* refused(next, "scheme-not-allowed", `${url.host} redirected to a ${next.protocol} URL`)
          }
          if (request.mayRedirectTo !== undefined && !request.mayRedirectTo(next)) {
            return yield* refused(
              next,
              "host-not-allowed",
              `${url.host} redirected to ${next.host}, not an allowed host`
            )
          }
          if (answer.status === 303 || (answer.status <= 302 && method === "POST")) {
            method = "GET"
            body = null
            headers = withoutHeaders(headers, ["content-type"])
          }
          if (next.host !== first.host) headers = withoutHeaders(headers, request.credentialHeaders ?? [])
          url = next
        }
      })

    /** Sends `request`, following redirects, within its time-out. */
    const send = (request: OutboundRequest): Effect.Effect<OutboundResponse, OutboundFailure> =>
      follow(request).pipe(
        Effect.timeoutFail({
          duration: request.timeoutMs,
          onTimeout: () =>
            new OutboundTimedOut({
              host: request.url.host,
              timeoutMs: request.timeoutMs,
              message: `${request.url.host} did not answer within ${request.timeoutMs} ms`
            })
        })
      )

    return { send, agents } as const
  })
}) {}

const refused = (url: URL, reason: "scheme-not-allowed" | "host-not-allowed", message: string) =>
  new OutboundRefused({ host: url.host, address: null, reason, message })

const withoutHeaders = (headers: Record<string, string>, names: ReadonlyArray<string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())))
