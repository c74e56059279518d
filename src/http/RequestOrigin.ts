/**
 * Where a request came from: the client's address (read past the configured
 * number of trusted proxies in `X-Forwarded-For`, never trusting a header a
 * client could set when no proxy is configured), its user agent, and the trace.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { TrustedProxyHops } from "../config/Settings.js"
import type { Origin } from "../domain/identity/Origin.js"

const ADDRESS = /^[0-9A-Fa-f.:]{2,45}$/

const normalise = (address: string | undefined): string | null => {
  if (address === undefined) return null
  const trimmed = address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1")
  return ADDRESS.test(trimmed) ? trimmed : null
}

/** The client address of a request, given how many proxies stand in front. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustedHops: number): string | null => {
  const socket = normalise(Option.getOrUndefined(request.remoteAddress))
  if (trustedHops <= 0) return socket
  const forwarded = (request.headers["x-forwarded-for"] ?? "").split(",").map((part) => part.trim()).filter(Boolean)
  // Each trusted proxy appended the address it saw; the client is the entry the outermost one wrote.
  return normalise(forwarded[forwarded.length - trustedHops]) ?? socket
}

export class RequestOrigin extends Effect.Service<RequestOrigin>()("parley/http/RequestOrigin", {
  effect: Effect.map(TrustedProxyHops, (hops) => ({
    /** The origin of a request, for rate limits, sessions and the audit log. */
    of: (request: HttpServerRequest.HttpServerRequest) =>
      Effect.map(Effect.option(Effect.currentSpan), (span): Origin => ({
        ipAddress: clientAddress(request, hops),
        userAgent: request.headers["user-agent"]?.slice(0, 512) ?? null,
        traceId: Option.match(span, { onNone: () => null, onSome: (span) => span.traceId })
      }))
  }))
}) {}
