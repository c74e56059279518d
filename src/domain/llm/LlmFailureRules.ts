/**
 * What a provider's answer means for Parley: which failure kind an HTTP
 * status and body are, how long a `Retry-After` asks us to wait, which
 * failures hand a call to the fallback, and how a message loses any
 * credential before it is shown or logged.
 */
import type { LlmFailureKind } from "../settings/LlmConnectionTest.js"

const quotaWords = /insufficient_quota|quota|billing|credit/i

/** The failure kind of a provider's HTTP status (and its body, which tells a quota from a rate limit). */
export const kindOfStatus = (status: number, body: string): LlmFailureKind => {
  if (status === 401 || status === 403) return "authentication"
  if (status === 404) return /model/i.test(body) ? "model-not-found" : "provider-error"
  if (status === 402) return "quota-exceeded"
  if (status === 429) return quotaWords.test(body) ? "quota-exceeded" : "rate-limited"
  if (status === 408 || status === 504) return "timeout"
  if (status >= 400 && status < 500) return "bad-request"
  return "provider-error"
}

/**
 * How many milliseconds a provider asked us to wait: `retry-after-ms`
 * (OpenAI), else `Retry-After` in seconds or as an HTTP date; null when absent
 * or unreadable. Capped at an hour so a broken header cannot park a provider.
 */
export const retryAfterMillis = (
  headers: Readonly<Record<string, string | undefined>>,
  now: number
): number | null => {
  const capped = (ms: number) => Math.min(Math.max(0, Math.ceil(ms)), 3_600_000)
  const millis = headers["retry-after-ms"]
  if (millis !== undefined && /^\d+(\.\d+)?$/.test(millis.trim())) return capped(Number(millis))
  const value = headers["retry-after"]?.trim()
  if (value === undefined || value === "") return null
  if (/^\d+(\.\d+)?$/.test(value)) return capped(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : capped(date - now)
}

/** The failures a fallback takes over: the provider is slow, overloaded, limited or unreachable, not misconfigured. */
export const fallsBack = (kind: LlmFailureKind): boolean =>
  kind === "timeout" || kind === "rate-limited" || kind === "quota-exceeded" || kind === "provider-error" ||
  kind === "network" || kind === "host-not-found"

/** The failures that count against a provider's circuit breaker (a wrong key or model does not mean it is down). */
export const countsAgainstProvider = (kind: LlmFailureKind): boolean =>
  kind === "timeout" || kind === "rate-limited" || kind === "provider-error" || kind === "network"

const credentialPatterns: ReadonlyArray<RegExp> = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{6,}/g,
  /\b(x-api-key|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
  /(\/\/)[^/\s:@]+:[^/\s@]+@/g
]

/**
 * A provider's message fit to show: every given secret value and anything
 * shaped like a credential replaced by `[redacted]`, cut to 2,000 characters.
 */
export const stripCredentials = (message: string, secrets: ReadonlyArray<string>): string => {
  let text = message
  for (const secret of secrets) {
    if (secret.length >= 4) text = text.split(secret).join("[redacted]")
  }
  text = text
    .replace(credentialPatterns[0]!, (_, scheme: string) => `${scheme} [redacted]`)
    .replace(credentialPatterns[1]!, "[redacted]")
    .replace(credentialPatterns[2]!, (_, name: string, separator: string) => `${name}${separator}[redacted]`)
    .replace(credentialPatterns[3]!, "$1[redacted]@")
  return text.length > 2000 ? `${text.slice(0, 1999)}…` : text
}
