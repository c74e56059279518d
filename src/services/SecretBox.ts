/**
 * Authenticated encryption of secrets at rest (TOTP seeds, vault values,
 * provider keys). Each context ("totp-seed", "vault") gets its own key derived
 * from the master key and is bound as associated data, so a value sealed for
 * one purpose cannot be opened as another.
 */
import { Data, Effect } from "effect"
import * as Crypto from "node:crypto"
import { MasterKey } from "./MasterKey.js"

/** Why a sealed value could not be opened. */
export type SecretBoxFailure =
  /** Not a `v1.<iv>.<ciphertext>.<tag>` string. */
  | "malformed"
  /** Wrong master key, wrong context, or tampered with: AES-GCM cannot tell these apart. */
  | "authentication"
  /** It opened, but the plaintext is not UTF-8 (only from `openString`). */
  | "not-text"

/** A sealed value could not be opened: malformed, tampered with, sealed for another context or under another key. */
export class SecretBoxError extends Data.TaggedError("SecretBoxError")<{
  readonly reason: SecretBoxFailure
}> {
  override get message() {
    switch (this.reason) {
      case "malformed":
        return "the sealed value is malformed"
      case "authentication":
        return "the sealed value does not open: another master key, another context, or tampered with"
      case "not-text":
        return "the sealed value is not text"
    }
  }
}

const VERSION = "v1"
const IV_BYTES = 12
const TAG_BYTES = 16
const base64url = /^[A-Za-z0-9_-]*$/

const contextKey = (master: Uint8Array, context: string) =>
  new Uint8Array(Crypto.hkdfSync("sha256", master, new Uint8Array(0), `parley:${context}`, 32))

const aad = (context: string) => Buffer.from(context, "utf8")

const parse = (sealed: string) => {
  const parts = sealed.split(".")
  if (parts.length !== 4 || parts[0] !== VERSION || !parts.every((part) => base64url.test(part))) return undefined
  const [, iv, ciphertext, tag] = parts.map((part) => Buffer.from(part, "base64url"))
  if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES) return undefined
  return { iv: iv!, ciphertext: ciphertext!, tag: tag! }
}

/** Seals and opens secrets with AES-256-GCM under a per-context key derived from the master key. */
export class SecretBox extends Effect.Service<SecretBox>()("parley/services/SecretBox", {
  effect: Effect.gen(function*() {
    const { key: master } = yield* MasterKey

    const seal = Effect.fn("SecretBox.seal")(function*(plaintext: string | Uint8Array, context: string) {
      const iv = yield* Effect.sync(() => Crypto.randomBytes(IV_BYTES))
      const cipher = Crypto.createCipheriv("aes-256-gcm", contextKey(master, context), iv, { authTagLength: TAG_BYTES })
      cipher.setAAD(aad(context))
      const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext
      const ciphertext = Buffer.concat([cipher.update(data), cipher.final()])
      return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) =>
        typeof part === "string" ? part : part.toString("base64url")
      ).join(".")
    })

    const open = Effect.fn("SecretBox.open")(function*(sealed: string, context: string) {
      const parts = parse(sealed)
      if (parts === undefined) return yield* new SecretBoxError({ reason: "malformed" })
      return yield* Effect.try({
        try: () => {
          const decipher = Crypto.createDecipheriv("aes-256-gcm", contextKey(master, context), parts.iv, {
            authTagLength: TAG_BYTES
          })
          decipher.setAAD(aad(context))
          decipher.setAuthTag(parts.tag)
          return new Uint8Array(Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]))
        },
        catch: () => new SecretBoxError({ reason: "authentication" })
      })
    })

    const openString = Effect.fn("SecretBox.openString")(function*(sealed: string, context: string) {
      const bytes = yield* open(sealed, context)
      return yield* Effect.try({
        try: () => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
        catch: () => new SecretBoxError({ reason: "not-text" })
      })
    })

    return { seal, open, openString } as const
  })
}) {}
