/**
 * The pure rules behind usage and error reports: buckets on the UTC calendar
 * (weeks from Monday, months from the 1st, at most 400), prices by
 * `provider/model`, `provider/*` or model, and the error fingerprint that
 * ignores ids, numbers and trace ids.
 */
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { costOf, defaultAiPrices, priceOf } from "../../../../src/domain/workspace/AiPrices.js"
import { blanked, errorFingerprint, topFrame } from "../../../../src/domain/workspace/ErrorFingerprint.js"
import { bucketStart, usageRange } from "../../../../src/domain/workspace/UsageRange.js"

const at = (iso: string) => Date.parse(iso)
const iso = (millis: number) => new Date(millis).toISOString()
const utc = (text: string) => DateTime.unsafeMake(text)

describe("usage buckets", () => {
  it("weeks start on Monday and months on the 1st, in UTC", () => {
    expect(iso(bucketStart("week", at("2026-11-26T23:59:59Z")))).toBe("2026-11-23T00:00:00.000Z")
    expect(iso(bucketStart("week", at("2026-11-23T00:00:00Z")))).toBe("2026-11-23T00:00:00.000Z")
    expect(iso(bucketStart("week", at("2026-11-22T23:59:59Z")))).toBe("2026-11-16T00:00:00.000Z")
    expect(iso(bucketStart("month", at("2024-02-29T12:00:00Z")))).toBe("2024-02-01T00:00:00.000Z")
    expect(iso(bucketStart("day", at("2026-01-01T00:00:00Z")))).toBe("2026-01-01T00:00:00.000Z")
  })

  it("the default ranges end with the bucket holding now", () => {
    const now = at("2026-03-15T10:00:00Z")
    const days = Either.getOrThrow(usageRange({ period: "day" }, now))
    expect(days.buckets).toHaveLength(30)
    expect(iso(days.to)).toBe("2026-03-16T00:00:00.000Z")
    const months = Either.getOrThrow(usageRange({ period: "month" }, now))
    expect(months.buckets.map(([start]) => iso(start).slice(0, 7))).toEqual([
      "2025-04",
      "2025-05",
      "2025-06",
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03"
    ])
  })

  it("a `to` on a boundary is not widened; 400 buckets pass, 401 do not; empty and reversed ranges are refused", () => {
    const now = at("2026-03-15T10:00:00Z")
    const exact = Either.getOrThrow(
      usageRange({ period: "day", from: utc("2026-01-01T00:00:00Z"), to: utc("2026-01-03T00:00:00Z") }, now)
    )
    expect(exact.buckets).toHaveLength(2)
    expect(
      Either.isRight(
        usageRange({ period: "day", from: utc("2024-01-01T00:00:00Z"), to: utc("2025-02-04T00:00:00Z") }, now)
      )
    )
      .toBe(true)
    expect(
      Either.isLeft(
        usageRange({ period: "day", from: utc("2024-01-01T00:00:00Z"), to: utc("2025-02-05T00:00:00Z") }, now)
      )
    )
      .toBe(true)
    expect(
      Either.isLeft(
        usageRange({ period: "day", from: utc("2026-01-02T00:00:00Z"), to: utc("2026-01-01T00:00:00Z") }, now)
      )
    )
      .toBe(true)
    expect(Either.isLeft(usageRange({ period: "week", from: utc("2027-01-01T00:00:00Z") }, now))).toBe(true)
  })
})

describe("prices", () => {
  it("look up provider/model, then provider/*, then the bare model; unlisted costs 0", () => {
    const table = { ...defaultAiPrices, "my-llama": { inputPerMillion: 1, outputPerMillion: 2 } }
    expect(priceOf(table, "openai", "gpt-4o")).toEqual({ inputPerMillion: 2.5, outputPerMillion: 10 })
    expect(priceOf(table, "offline", "anything")).toEqual({ inputPerMillion: 0, outputPerMillion: 0 })
    expect(priceOf(table, "openai-compatible", "my-llama")).toEqual({ inputPerMillion: 1, outputPerMillion: 2 })
    expect(priceOf(table, "openai-compatible", "gpt-4o")).toBeUndefined()
    expect(costOf(priceOf(table, "openai", "gpt-4o"), 2_000_000, 1_000_000)).toBe(15)
    expect(costOf(undefined, 5, 5)).toBe(0)
  })
})

describe("the error fingerprint", () => {
  const base = {
    errorName: "TypeError",
    message: "Cannot read 'id' of undefined in 0193a4f2-7c1e-7b3a-9d2e-5f6a7b8c9d0e after 3 tries",
    stack: "TypeError: Cannot read\n    at render (https://app.example.com/a.js:1:200)\n    at b",
    route: "GET /v1/agents/0193a4f2-7c1e-7b3a-9d2e-5f6a7b8c9d0e"
  }

  it("ignores ids and numbers, and tells errors apart by name, message, top frame and route", () => {
    const same = {
      ...base,
      message: "Cannot read 'id' of undefined in 01938888-0000-7000-8000-000000000000 after 12 tries",
      route: "GET /v1/agents/01938888-0000-7000-8000-000000000000"
    }
    expect(errorFingerprint(same)).toBe(errorFingerprint(base))
    expect(errorFingerprint({ ...base, errorName: "RangeError" })).not.toBe(errorFingerprint(base))
    expect(errorFingerprint({ ...base, message: "Something else" })).not.toBe(errorFingerprint(base))
    expect(errorFingerprint({ ...base, stack: "TypeError\n    at other (x.js:1:1)" })).not.toBe(errorFingerprint(base))
    expect(errorFingerprint({ ...base, route: null })).not.toBe(errorFingerprint(base))
    expect(errorFingerprint(base)).toMatch(/^[0-9a-f]{64}$/)
  })

  it("blanks ids and numbers, and finds the top frame in V8 and Firefox stacks", () => {
    expect(blanked("Assistant 0193a4f2-7c1e-7b3a-9d2e-5f6a7b8c9d0e not found (404), hash deadbeefcafe"))
      .toBe("Assistant <id> not found (<n>), hash <id>")
    expect(topFrame("Error: x\n    at f (a.js:1:2)\n    at g")).toBe("at f (a.js:1:2)")
    expect(topFrame("f@https://a.example.com/a.js:1:2\ng@b.js:3:4")).toBe("f@https://a.example.com/a.js:1:2")
    expect(topFrame(null)).toBe("")
  })
})
