import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import fc from "fast-check"
import { toolIdempotencyKey } from "../../../../../src/domain/aiAgents/loop/ToolIdempotencyKey.js"
import { IdempotencyKey } from "../../../../../src/domain/Idempotency.js"

const place = { conversationId: "0191f3a2-7c4e-7b1a-9c1e-2f4d5e6a7b8c", turn: 3, step: 2, callId: "call_abc" }

const places = fc.record({
  conversationId: fc.oneof(fc.uuid(), fc.string({ maxLength: 6 })),
  turn: fc.nat({ max: 5 }),
  step: fc.nat({ max: 5 }),
  callId: fc.string({ maxLength: 6 })
})

describe("a tool call's Idempotency-Key", () => {
  it("is pty_ and 60 hex digits, a valid Idempotency-Key, and the same on every node and release", () => {
    const key = toolIdempotencyKey(place)
    expect(key).toMatch(/^pty_[0-9a-f]{60}$/)
    expect(Schema.is(IdempotencyKey)(key)).toBe(true)
    // Pinned: a change of derivation would make a resumed call look new to the tool.
    // sha256 of {"callId":"call_abc","conversationId":"0191f3a2-…","step":2,"turn":3}, checked with sha256sum.
    expect(key).toBe("pty_a9bd9175e067a5a71570796d6646ed8763db5f75e30668c4bff997ff095d")
    expect(toolIdempotencyKey({ callId: place.callId, step: 2, turn: 3, conversationId: place.conversationId }))
      .toBe(key)
  })

  it("differs when any of the four differs, including where a plain concatenation would collide", () => {
    const key = toolIdempotencyKey(place)
    expect(toolIdempotencyKey({ ...place, conversationId: place.conversationId.toUpperCase() })).not.toBe(key)
    expect(toolIdempotencyKey({ ...place, turn: 4 })).not.toBe(key)
    expect(toolIdempotencyKey({ ...place, step: 3 })).not.toBe(key)
    expect(toolIdempotencyKey({ ...place, callId: "call_abd" })).not.toBe(key)
    expect(toolIdempotencyKey({ ...place, turn: 2, step: 3 })).not.toBe(
      toolIdempotencyKey({ ...place, turn: 3, step: 2 })
    )
    expect(toolIdempotencyKey({ conversationId: "a:1", turn: 1, step: 1, callId: "x" })).not.toBe(
      toolIdempotencyKey({ conversationId: "a", turn: 1, step: 1, callId: "1:x" })
    )
  })

  it("equal places give equal keys and different places different keys", () => {
    fc.assert(
      fc.property(places, places, (a, b) => {
        const same = a.conversationId === b.conversationId && a.turn === b.turn && a.step === b.step &&
          a.callId === b.callId
        expect(toolIdempotencyKey(a) === toolIdempotencyKey({ ...b })).toBe(same)
        expect(toolIdempotencyKey(a)).toBe(toolIdempotencyKey({ ...a }))
      }),
      { numRuns: 2000 }
    )
  })
})
