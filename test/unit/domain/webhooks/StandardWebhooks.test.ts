import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import {
  generateSecret,
  MAX_SIGNATURES,
  sign,
  signedHeaders,
  verify
} from "../../../../src/domain/webhooks/StandardWebhooks.js"
import { corpus } from "../../../support/Fixtures.js"

interface Vector {
  readonly secret: string
  readonly id: string
  readonly timestamp: number
  readonly payload: string
  readonly expected_signature: string
  readonly known_invalid_signature: string
}

const { vectors } = JSON.parse(Fs.readFileSync(corpus("vectors/standard-webhooks.json"), "utf8")) as {
  readonly vectors: ReadonlyArray<Vector>
}
const vector = vectors[0]!
const content = { id: vector.id, timestamp: vector.timestamp, body: vector.payload }
const at = (seconds: number) => ({ secrets: [vector.secret], nowSeconds: vector.timestamp + seconds })

describe("StandardWebhooks", () => {
  it("signs the published vector exactly", () => {
    expect(sign(vector.secret, content)).toBe(vector.expected_signature)
    expect(signedHeaders(vector.secret, content)).toEqual({
      "webhook-id": vector.id,
      "webhook-timestamp": String(vector.timestamp),
      "webhook-signature": vector.expected_signature
    })
  })

  it("verifies the published signature and refuses the published invalid one", () => {
    expect(verify(content, vector.expected_signature, at(0))).toBeUndefined()
    expect(verify(content, vector.known_invalid_signature, at(0))?.reason).toBe("mismatch")
  })

  it("verifies the raw bytes: one changed character of the body, id or timestamp is a mismatch", () => {
    for (
      const changed of [
        { ...content, body: vector.payload.replace("2432", "2433") },
        { ...content, body: vector.payload + " " },
        { ...content, id: vector.id + "x" }
      ]
    ) {
      expect(verify(changed, vector.expected_signature, at(0))?.reason).toBe("mismatch")
    }
    const later = { ...content, timestamp: vector.timestamp + 1 }
    expect(verify(later, vector.expected_signature, at(0))?.reason).toBe("mismatch")
    expect(verify(content, vector.expected_signature, { ...at(0), secrets: [generateSecret()] })?.reason).toBe(
      "mismatch"
    )
  })

  it("accepts a timestamp up to five minutes away either way, and refuses one beyond", () => {
    expect(verify(content, vector.expected_signature, at(300))).toBeUndefined()
    expect(verify(content, vector.expected_signature, at(-300))).toBeUndefined()
    expect(verify(content, vector.expected_signature, at(301))?.reason).toBe("stale")
    expect(verify(content, vector.expected_signature, at(-301))?.reason).toBe("stale")
  })

  it("accepts any matching signature of several (rotation) and any of several secrets", () => {
    const rotated = generateSecret()
    const header = `${sign(rotated, content)} ${vector.expected_signature}`
    expect(verify(content, header, at(0))).toBeUndefined()
    expect(verify(content, vector.expected_signature, { ...at(0), secrets: [rotated, vector.secret] })).toBeUndefined()
    expect(verify(content, `v2,abc ${vector.expected_signature}`, at(0))).toBeUndefined()
  })

  it("refuses malformed headers without throwing", () => {
    for (
      const header of [
        "",
        "   ",
        "v1,",
        "v1,not base64!",
        "g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
        "v2,xyz",
        "\u0000"
      ]
    ) {
      expect(verify(content, header, at(0))?.reason).toBe("malformed")
    }
    const many = Array.from({ length: MAX_SIGNATURES + 1 }, () => vector.expected_signature).join(" ")
    expect(verify(content, many, at(0))?.reason).toBe("malformed")
    expect(verify({ ...content, timestamp: Number.NaN }, vector.expected_signature, at(0))?.reason).toBe("stale")
  })

  it("signs bytes and text alike, and new secrets are whsec_ with 32 random bytes", () => {
    const bytes = new TextEncoder().encode(vector.payload)
    expect(sign(vector.secret, { ...content, body: bytes })).toBe(vector.expected_signature)
    const secret = generateSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secret).not.toBe(generateSecret())
  })
})
