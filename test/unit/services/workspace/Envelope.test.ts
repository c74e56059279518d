import { describe, expect, it } from "@effect/vitest"
import * as Crypto from "node:crypto"
import type { MasterKeyEntry } from "../../../../src/services/MasterKey.js"
import { openValue, rewrap, sealValue } from "../../../../src/services/workspace/Envelope.js"

const masterKey = (id: string): MasterKeyEntry => ({ id, key: new Uint8Array(Crypto.randomBytes(32)) })
const address = { secretId: "0190c7a0-0000-7000-8000-000000000001", version: 3 }

const flip = (bytes: Uint8Array, at: number) => {
  const copy = new Uint8Array(bytes)
  copy[at] = copy[at]! ^ 0x01
  return copy
}

describe("Envelope", () => {
  it("seals a value under a fresh data key that the master key wraps, and opens it again", () => {
    const master = masterKey("aaaaaaaaaaaaaaaa")
    const value = "sk-live-ключ-🔑-0123456789"
    const sealed = sealValue(value, address, master)
    expect(sealed.masterKeyId).toBe(master.id)
    expect(sealed.wrappedKey.length).toBe(12 + 32 + 16)
    expect(openValue(sealed, address, master)).toBe(value)
    const again = sealValue(value, address, master)
    expect(Buffer.from(again.ciphertext).equals(Buffer.from(sealed.ciphertext))).toBe(false)
    expect(Buffer.from(again.wrappedKey).equals(Buffer.from(sealed.wrappedKey))).toBe(false)
    const stored = Buffer.concat([sealed.ciphertext, sealed.wrappedKey]).toString("latin1")
    expect(stored).not.toContain("sk-live")
  })

  it("does not open under another master key, at another address, or with any byte altered", () => {
    const master = masterKey("aaaaaaaaaaaaaaaa")
    const sealed = sealValue("value", address, master)
    expect(openValue(sealed, address, masterKey("bbbbbbbbbbbbbbbb"))).toBeUndefined()
    expect(openValue(sealed, { ...address, version: 4 }, master)).toBeUndefined()
    expect(openValue(sealed, { ...address, secretId: "0190c7a0-0000-7000-8000-000000000002" }, master))
      .toBeUndefined()
    for (const at of [0, 12, sealed.ciphertext.length - 1]) {
      expect(openValue({ ...sealed, ciphertext: flip(sealed.ciphertext, at) }, address, master)).toBeUndefined()
    }
    for (const at of [0, 20, sealed.wrappedKey.length - 1]) {
      expect(openValue({ ...sealed, wrappedKey: flip(sealed.wrappedKey, at) }, address, master)).toBeUndefined()
    }
    expect(openValue({ ...sealed, wrappedKey: new Uint8Array(4) }, address, master)).toBeUndefined()
  })

  it("re-wraps the data key under another master key, leaving the ciphertext as it was", () => {
    const [old, next] = [masterKey("aaaaaaaaaaaaaaaa"), masterKey("bbbbbbbbbbbbbbbb")]
    const sealed = sealValue("the value", address, old)
    const moved = rewrap(sealed, address, old, next)!
    expect(moved.masterKeyId).toBe(next.id)
    expect(Buffer.from(moved.ciphertext).equals(Buffer.from(sealed.ciphertext))).toBe(true)
    expect(openValue(moved, address, next)).toBe("the value")
    expect(openValue(moved, address, old)).toBeUndefined()
    expect(rewrap(sealed, address, next, old)).toBeUndefined()
  })
})
