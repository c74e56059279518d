import { describe, expect, it } from "vitest"
import type { AccessTokenClaims } from "../../../../src/domain/identity/AccessTokenClaims.js"
import { makeVerifiedTokens } from "../../../../src/services/identity/VerifiedTokens.js"

const claims = (exp: number) => ({ exp, sub: "user", sid: "session" }) as unknown as AccessTokenClaims
const anyKey = () => true

describe("VerifiedTokens", () => {
  it("answers a remembered token until it expires, with the clock tolerance", () => {
    const tokens = makeVerifiedTokens(10, 30)
    tokens.remember("a", { claims: claims(1000), kid: "k1" })
    expect(tokens.get("a", 999, anyKey)?.exp).toBe(1000)
    expect(tokens.get("a", 1030, anyKey)?.exp).toBe(1000)
    expect(tokens.get("a", 1031, anyKey)).toBeUndefined()
    // An expired entry is dropped, not kept.
    expect(tokens.size()).toBe(0)
  })

  it("forgets a token whose signing key left the key set", () => {
    const tokens = makeVerifiedTokens(10, 30)
    tokens.remember("a", { claims: claims(1000), kid: "k1" })
    expect(tokens.get("a", 500, (kid) => kid !== "k1")).toBeUndefined()
    expect(tokens.get("a", 500, anyKey)).toBeUndefined()
  })

  it("answers only for the exact token verified", () => {
    const tokens = makeVerifiedTokens(10, 30)
    tokens.remember("a.b.c", { claims: claims(1000), kid: "k1" })
    expect(tokens.get("a.b.d", 500, anyKey)).toBeUndefined()
  })

  it("keeps at most its capacity, evicting the oldest", () => {
    const tokens = makeVerifiedTokens(2, 30)
    tokens.remember("a", { claims: claims(1000), kid: "k" })
    tokens.remember("b", { claims: claims(1000), kid: "k" })
    tokens.remember("c", { claims: claims(1000), kid: "k" })
    expect(tokens.size()).toBe(2)
    expect(tokens.get("a", 500, anyKey)).toBeUndefined()
    expect(tokens.get("c", 500, anyKey)).toBeDefined()
  })
})
