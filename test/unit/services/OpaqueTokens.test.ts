import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { MfaCode } from "../../../src/domain/identity/Mfa.js"
import { OpaqueToken } from "../../../src/domain/identity/OneTimeToken.js"
import { Sha256Hex } from "../../../src/domain/Sha256Hex.js"
import {
  generateRecoveryCode,
  generateToken,
  hashToken,
  normaliseRecoveryCode,
  RECOVERY_CODE_ALPHABET
} from "../../../src/services/OpaqueTokens.js"

describe("OpaqueTokens", () => {
  it("generates 256-bit base64url tokens the OpaqueToken schema accepts", () => {
    const token = generateToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, "base64url").length).toBe(32)
    expect(Schema.is(OpaqueToken)(Schema.decodeSync(OpaqueToken)(token))).toBe(true)
    const many = new Set(Array.from({ length: 1000 }, () => generateToken()))
    expect(many.size).toBe(1000)
  })

  it("puts an optional prefix in front", () => {
    const token = generateToken("pat_")
    expect(token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/)
    Schema.decodeSync(OpaqueToken)(token)
  })

  it("hashes with SHA-256 in lowercase hex", () => {
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    expect(Schema.is(Sha256Hex)(hashToken(generateToken()))).toBe(true)
    expect(hashToken("pat_a")).not.toBe(hashToken("pat_b"))
  })

  it("generates recovery codes as xxxxx-xxxxx from the unambiguous alphabet, matching MfaCode", () => {
    for (let i = 0; i < 200; i++) {
      const code = generateRecoveryCode()
      expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/)
      for (const character of code.replace("-", "")) expect(RECOVERY_CODE_ALPHABET).toContain(character)
      Schema.decodeSync(MfaCode)(code)
      expect(normaliseRecoveryCode(code)).toBe(code)
    }
    expect(RECOVERY_CODE_ALPHABET).not.toMatch(/[01ilo]/)
  })

  it("normalises a typed recovery code: case, dash and spaces do not matter", () => {
    expect(normaliseRecoveryCode("AB2CD-EF3GH")).toBe("ab2cd-ef3gh")
    expect(normaliseRecoveryCode("ab2cdef3gh")).toBe("ab2cd-ef3gh")
    expect(normaliseRecoveryCode(" ab2cd ef3gh ")).toBe("ab2cd-ef3gh")
    expect(hashToken(normaliseRecoveryCode("AB2CDEF3GH"))).toBe(hashToken("ab2cd-ef3gh"))
    expect(normaliseRecoveryCode("short")).toBe("short")
  })
})
