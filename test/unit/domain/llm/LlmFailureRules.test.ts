import { describe, expect, it } from "@effect/vitest"
import {
  countsAgainstProvider,
  fallsBack,
  kindOfStatus,
  retryAfterMillis,
  stripCredentials
} from "../../../../src/domain/llm/LlmFailureRules.js"

describe("LLM failure rules", () => {
  it("an HTTP status (and body) is a failure kind", () => {
    expect(kindOfStatus(401, "")).toBe("authentication")
    expect(kindOfStatus(403, "")).toBe("authentication")
    expect(kindOfStatus(404, `{"error":{"code":"model_not_found"}}`)).toBe("model-not-found")
    expect(kindOfStatus(404, "Not Found")).toBe("provider-error")
    expect(kindOfStatus(429, `{"error":{"type":"requests"}}`)).toBe("rate-limited")
    expect(kindOfStatus(429, `{"error":{"code":"insufficient_quota"}}`)).toBe("quota-exceeded")
    expect(kindOfStatus(402, "")).toBe("quota-exceeded")
    expect(kindOfStatus(400, "")).toBe("bad-request")
    expect(kindOfStatus(504, "")).toBe("timeout")
    expect(kindOfStatus(500, "")).toBe("provider-error")
    expect(kindOfStatus(529, "")).toBe("provider-error")
  })

  it("Retry-After in seconds, as a date, and OpenAI's retry-after-ms; garbage and absence are null; capped at an hour", () => {
    const now = Date.parse("2026-11-26T12:00:00Z")
    expect(retryAfterMillis({ "retry-after": "7" }, now)).toBe(7000)
    expect(retryAfterMillis({ "retry-after": "1.5" }, now)).toBe(1500)
    expect(retryAfterMillis({ "retry-after": "Thu, 26 Nov 2026 12:00:30 GMT" }, now)).toBe(30_000)
    expect(retryAfterMillis({ "retry-after": "Thu, 26 Nov 2026 11:00:00 GMT" }, now)).toBe(0)
    expect(retryAfterMillis({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250)
    expect(retryAfterMillis({ "retry-after": "soon" }, now)).toBeNull()
    expect(retryAfterMillis({}, now)).toBeNull()
    expect(retryAfterMillis({ "retry-after": "999999" }, now)).toBe(3_600_000)
  })

  it("the fallback takes over when the provider is slow, limited or down, not when it is misconfigured", () => {
    for (
      const kind of [
        "timeout",
        "rate-limited",
        "quota-exceeded",
        "provider-error",
        "network",
        "host-not-found"
      ] as const
    ) {
      expect(fallsBack(kind)).toBe(true)
    }
    for (
      const kind of [
        "authentication",
        "model-not-found",
        "bad-request",
        "outbound-refused",
        "unsupported",
        "tls",
        "not-recorded"
      ] as const
    ) {
      expect(fallsBack(kind)).toBe(false)
    }
    expect(countsAgainstProvider("authentication")).toBe(false)
    expect(countsAgainstProvider("provider-error")).toBe(true)
  })

  it("credentials leave a message: the given values, bearer tokens, sk- keys, key=value pairs and URL passwords", () => {
    const message = stripCredentials(
      "Incorrect API key provided: my-own-secret-value. Authorization: Bearer abc.def-ghi, sk-proj-ABCDEF123456, " +
        `api_key="xyz123" and https://user:pa55@proxy.example.com/v1`,
      ["my-own-secret-value"]
    )
    expect(message).not.toMatch(/my-own-secret-value|abc\.def-ghi|ABCDEF123456|xyz123|pa55/)
    expect(message).toContain("Incorrect API key provided: [redacted]")
    expect(message).toContain("https://[redacted]@proxy.example.com/v1")
    expect(stripCredentials("x".repeat(5000), [])).toHaveLength(2000)
  })
})
