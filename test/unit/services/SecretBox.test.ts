import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import { MasterKey } from "../../../src/services/MasterKey.js"
import { SecretBox } from "../../../src/services/SecretBox.js"

const boxWith = (material: Uint8Array) => SecretBox.Default.pipe(Layer.provideMerge(MasterKey.layerFromBytes(material)))

const flipByteOf = (sealed: string, part: 2 | 3 | 4) => {
  const parts = sealed.split(".")
  const bytes = Buffer.from(parts[part]!, "base64url")
  bytes[0] = bytes[0]! ^ 0x01
  parts[part] = bytes.toString("base64url")
  return parts.join(".")
}

describe("SecretBox", () => {
  layer(boxWith(Crypto.randomBytes(32)))("one master key", (it) => {
    it.effect("opens what it sealed, as bytes or text, in the v2 format naming its master key", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "totp-seed")
        expect(sealed).toMatch(/^v2\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
        expect(sealed.split(".")[1]).toBe((yield* MasterKey).current.id)
        expect(yield* box.openString(sealed, "totp-seed")).toBe("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")

        const bytes = new Uint8Array([0, 1, 2, 253, 254, 255])
        expect(yield* box.open(yield* box.seal(bytes, "vault"), "vault")).toEqual(bytes)
        expect(yield* box.openString(yield* box.seal("", "vault"), "vault")).toBe("")
        expect(yield* box.openString(yield* box.seal("ключ 🔑", "vault"), "vault")).toBe("ключ 🔑")
      }))

    it.effect("seals the same plaintext differently each time (random IV)", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const first = yield* box.seal("same", "vault")
        const second = yield* box.seal("same", "vault")
        expect(first).not.toBe(second)
      }))

    it.effect("refuses to open under another context", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("provider key", "provider-key")
        const error = yield* Effect.flip(box.open(sealed, "vault"))
        expect(error._tag).toBe("SecretBoxError")
        expect(error.reason).toBe("authentication")
      }))

    it.effect("refuses a value with any part altered", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("provider key", "vault")
        for (const part of [2, 3, 4] as const) {
          const error = yield* Effect.flip(box.open(flipByteOf(sealed, part), "vault"))
          expect(error.reason).toBe("authentication")
        }
      }))

    it.effect("refuses malformed input as malformed", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("provider key", "vault")
        const [, id, iv, ciphertext, tag] = sealed.split(".")
        for (
          const bad of [
            "",
            "not sealed",
            `v2.${iv}.${ciphertext}.${tag}`,
            `v3.${id}.${iv}.${ciphertext}.${tag}`,
            `v2.${id!.toUpperCase()}X.${iv}.${ciphertext}.${tag}`,
            `v1.${id}.${iv}.${ciphertext}.${tag}`,
            `v1.${iv}.${ciphertext}`,
            `v1.${iv}.${ciphertext}.${tag}.extra`,
            `v1.${iv}.${ciphertext}.${tag!.slice(0, 10)}`,
            `v1.${iv}AA.${ciphertext}.${tag}`,
            `v1.${iv}.${ciphertext}+/.${tag}`
          ]
        ) {
          const error = yield* Effect.flip(box.open(bad, "vault"))
          expect(error.reason).toBe("malformed")
        }
      }))

    it.effect("openString refuses bytes that are not UTF-8", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal(new Uint8Array([0xff, 0xfe, 0xfd]), "vault")
        const error = yield* Effect.flip(box.openString(sealed, "vault"))
        expect(error.reason).toBe("not-text")
      }))

    it.effect("the sealed text never contains the plaintext, in any common encoding", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const plaintext = "sk-live-0123456789abcdefghijklmnopqrstuvwxyz"
        const sealed = yield* box.seal(plaintext, "provider-key")
        const encoded = Buffer.from(plaintext, "utf8")
        for (
          const form of [plaintext, encoded.toString("base64url"), encoded.toString("base64"), encoded.toString("hex")]
        ) {
          expect(sealed).not.toContain(form.slice(0, 12))
        }
      }))
  })

  it.effect("a value sealed under one master key does not open under another (its key is unknown there)", () =>
    Effect.gen(function*() {
      const sealed = yield* Effect.flatMap(SecretBox, (box) => box.seal("vault value", "vault")).pipe(
        Effect.provide(boxWith(Crypto.randomBytes(32)))
      )
      const error = yield* Effect.flatMap(SecretBox, (box) => Effect.flip(box.open(sealed, "vault"))).pipe(
        Effect.provide(boxWith(Crypto.randomBytes(32)))
      )
      expect(error.reason).toBe("unknown-key")
    }))

  /** A value as SecretBox sealed it before master keys had ids: `v1.<iv>.<ciphertext>.<tag>`. */
  const sealV1 = (material: Uint8Array, plaintext: string, context: string) => {
    const master = Crypto.hkdfSync("sha256", material, new Uint8Array(0), "parley master key", 32)
    const key = Crypto.hkdfSync("sha256", new Uint8Array(master), new Uint8Array(0), `parley:${context}`, 32)
    const iv = Crypto.randomBytes(12)
    const cipher = Crypto.createCipheriv("aes-256-gcm", new Uint8Array(key), iv, { authTagLength: 16 })
    cipher.setAAD(Buffer.from(context, "utf8"))
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
    return ["v1", iv, ciphertext, cipher.getAuthTag()].map((part) =>
      typeof part === "string" ? part : part.toString("base64url")
    ).join(".")
  }

  it.effect("a ring opens v1 values under any of its keys and v2 values under the key they name; reseal moves them to the current key", () =>
    Effect.gen(function*() {
      const old = Crypto.randomBytes(32)
      const fresh = Crypto.randomBytes(32)
      const legacy = sealV1(old, "JBSWY3DPEHPK3PXP", "totp-secret")
      const underOld = yield* Effect.flatMap(SecretBox, (box) => box.seal("signing key", "signing-key")).pipe(
        Effect.provide(boxWith(old))
      )
      const ring = SecretBox.Default.pipe(Layer.provide(MasterKey.layerFromBytes(fresh, [old])))
      yield* Effect.gen(function*() {
        const box = yield* SecretBox
        expect(yield* box.openString(legacy, "totp-secret")).toBe("JBSWY3DPEHPK3PXP")
        expect(yield* box.openString(underOld, "signing-key")).toBe("signing key")
        expect(box.isCurrent(underOld)).toBe(false)
        const moved = yield* box.reseal(legacy, "totp-secret")
        expect(moved._tag).toBe("Some")
        const resealed = moved._tag === "Some" ? moved.value : ""
        expect(box.isCurrent(resealed)).toBe(true)
        expect((yield* box.reseal(resealed, "totp-secret"))._tag).toBe("None")
        // Under the new key alone, the moved value opens and the old ones do not.
        const alone = yield* Effect.flatMap(SecretBox, (only) =>
          Effect.all([
            only.openString(resealed, "totp-secret"),
            Effect.flip(only.open(legacy, "totp-secret")),
            Effect.flip(only.open(underOld, "signing-key"))
          ])).pipe(Effect.provide(boxWith(fresh)))
        expect(alone[0]).toBe("JBSWY3DPEHPK3PXP")
        expect(alone[1].reason).toBe("authentication")
        expect(alone[2].reason).toBe("unknown-key")
      }).pipe(Effect.provide(ring))
    }))
})
