import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Crypto from "node:crypto"
import { MasterKey } from "../../../src/services/MasterKey.js"
import { SecretBox } from "../../../src/services/SecretBox.js"

const boxWith = (material: Uint8Array) => SecretBox.Default.pipe(Layer.provide(MasterKey.layerFromBytes(material)))

const flipByteOf = (sealed: string, part: 1 | 2 | 3) => {
  const parts = sealed.split(".")
  const bytes = Buffer.from(parts[part]!, "base64url")
  bytes[0] = bytes[0]! ^ 0x01
  parts[part] = bytes.toString("base64url")
  return parts.join(".")
}

describe("SecretBox", () => {
  layer(boxWith(Crypto.randomBytes(32)))("one master key", (it) => {
    it.effect("opens what it sealed, as bytes or text, in the v1 format", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "totp-seed")
        expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/)
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
        for (const part of [1, 2, 3] as const) {
          const error = yield* Effect.flip(box.open(flipByteOf(sealed, part), "vault"))
          expect(error.reason).toBe("authentication")
        }
      }))

    it.effect("refuses malformed input as malformed", () =>
      Effect.gen(function*() {
        const box = yield* SecretBox
        const sealed = yield* box.seal("provider key", "vault")
        const [, iv, ciphertext, tag] = sealed.split(".")
        for (
          const bad of [
            "",
            "not sealed",
            `v2.${iv}.${ciphertext}.${tag}`,
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

  it.effect("a value sealed under one master key does not open under another", () =>
    Effect.gen(function*() {
      const sealed = yield* Effect.flatMap(SecretBox, (box) => box.seal("vault value", "vault")).pipe(
        Effect.provide(boxWith(Crypto.randomBytes(32)))
      )
      const error = yield* Effect.flatMap(SecretBox, (box) => Effect.flip(box.open(sealed, "vault"))).pipe(
        Effect.provide(boxWith(Crypto.randomBytes(32)))
      )
      expect(error.reason).toBe("authentication")
    }))
})
