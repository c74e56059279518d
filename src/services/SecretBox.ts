/**
 * Authenticated encryption of secrets at rest (TOTP seeds, signing keys).
 * Each context ("totp-secret", "signing-key") gets its own key derived from
 * the master key and is bound as associated data, so a value sealed for one
 * purpose cannot be opened as another.
 *
 * A value is sealed under the ring's current master key and names it:
 * `v2.<key id>.<iv>.<ciphertext>.<tag>`. Values sealed before master keys had
 * ids (`v1.<iv>.<ciphertext>.<tag>`) are opened by trying every key of the
 * ring. `reseal` moves a value to the current key (the master-key rotation).
 */
import { Data, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { MasterKey, type MasterKeyEntry } from "./MasterKey.js"

/** Why a sealed value could not be opened. */
export type SecretBoxFailure =
  /** Not a `v1.<iv>.<ciphertext>.<tag>` or `v2.<key id>.<iv>.<ciphertext>.<tag>` string. */
  | "malformed"
  /** Sealed under a master key this node does not have (neither current nor previous). */
  | "unknown-key"
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
      case "unknown-key":
        return "the sealed value names a master key that is neither PARLEY_MASTER_KEY nor in PARLEY_MASTER_KEY_PREVIOUS"
      case "authentication":
        return "the sealed value does not open: another master key, another context, or tampered with"
      case "not-text":
        return "the sealed value is not text"
    }
  }
}

const IV_BYTES = 12
const TAG_BYTES = 16
const base64url = /^[A-Za-z0-9_-]*$/
const keyIdText = /^[0-9a-f]{16}$/

const contextKey = (master: Uint8Array, context: string) =>
  new Uint8Array(Crypto.hkdfSync("sha256", master, new Uint8Array(0), `parley:${context}`, 32))

const aad = (context: string) => Buffer.from(context, "utf8")

interface Parsed {
  /** The master key's id (`v2`), or none for a `v1` value. */
  readonly keyId: Option.Option<string>
  readonly iv: Buffer
  readonly ciphertext: Buffer
  readonly tag: Buffer
}

const parse = (sealed: string): Parsed | undefined => {
  const parts = sealed.split(".")
  const [version, ...rest] = parts
  const keyId = version === "v2" && parts.length === 5 && keyIdText.test(rest[0]!)
    ? Option.some(rest.shift()!)
    : version === "v1" && parts.length === 4
    ? Option.none<string>()
    : undefined
  if (keyId === undefined || !rest.every((part) => base64url.test(part))) return undefined
  const [iv, ciphertext, tag] = rest.map((part) => Buffer.from(part, "base64url"))
  if (iv!.length !== IV_BYTES || tag!.length !== TAG_BYTES) return undefined
  return { keyId, iv: iv!, ciphertext: ciphertext!, tag: tag! }
}

const decrypt = (master: Uint8Array, context: string, parts: Parsed): Uint8Array | undefined => {
  try {
    const decipher = Crypto.createDecipheriv("aes-256-gcm", contextKey(master, context), parts.iv, {
      authTagLength: TAG_BYTES
    })
    decipher.setAAD(aad(context))
    decipher.setAuthTag(parts.tag)
    return new Uint8Array(Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]))
  } catch {
    return undefined
  }
}

/** Seals and opens secrets with AES-256-GCM under a per-context key derived from the master key ring. */
export class SecretBox extends Effect.Service<SecretBox>()("parley/services/SecretBox", {
  effect: Effect.gen(function*() {
    const masterKeys = yield* MasterKey

    const seal = Effect.fn("SecretBox.seal")(function*(plaintext: string | Uint8Array, context: string) {
      const { id, key } = masterKeys.current
      const iv = yield* Effect.sync(() => Crypto.randomBytes(IV_BYTES))
      const cipher = Crypto.createCipheriv("aes-256-gcm", contextKey(key, context), iv, { authTagLength: TAG_BYTES })
      cipher.setAAD(aad(context))
      const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext
      const ciphertext = Buffer.concat([cipher.update(data), cipher.final()])
      return ["v2", id, ...[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString("base64url"))].join(".")
    })

    const open = Effect.fn("SecretBox.open")(function*(sealed: string, context: string) {
      const parts = parse(sealed)
      if (parts === undefined) return yield* new SecretBoxError({ reason: "malformed" })
      const candidates: ReadonlyArray<MasterKeyEntry> = Option.match(parts.keyId, {
        onNone: () => masterKeys.ring,
        onSome: (id) => Option.toArray(masterKeys.find(id))
      })
      if (candidates.length === 0) return yield* new SecretBoxError({ reason: "unknown-key" })
      for (const { key } of candidates) {
        const opened = decrypt(key, context, parts)
        if (opened !== undefined) return opened
      }
      return yield* new SecretBoxError({ reason: "authentication" })
    })

    const openString = Effect.fn("SecretBox.openString")(function*(sealed: string, context: string) {
      const bytes = yield* open(sealed, context)
      return yield* Effect.try({
        try: () => new TextDecoder("utf-8", { fatal: true }).decode(bytes),
        catch: () => new SecretBoxError({ reason: "not-text" })
      })
    })

    /** Whether a sealed value is already under the current master key (nothing for `reseal` to do). */
    const isCurrent = (sealed: string): boolean => {
      const parts = parse(sealed)
      return parts !== undefined && Option.contains(parts.keyId, masterKeys.current.id)
    }

    /**
     * The value sealed again under the current master key, or none when it is
     * already under it; fails when no key of the ring opens it.
     */
    const reseal = Effect.fn("SecretBox.reseal")(function*(sealed: string, context: string) {
      if (isCurrent(sealed)) return Option.none<string>()
      return Option.some(yield* seal(yield* open(sealed, context), context))
    })

    return { seal, open, openString, isCurrent, reseal } as const
  })
}) {}
