/**
 * Envelope encryption of vault values, pure: each version of a secret gets a
 * random 32-byte data key; the value is sealed with it (AES-256-GCM, the
 * secret's id and version as associated data, so a ciphertext moved to
 * another secret or version does not open) and the data key is wrapped by a
 * key derived from the master key (AES-256-GCM, bound to the same id and
 * version). Only the wrapped key, the ciphertext and the master key's id are
 * stored, so a master-key rotation re-wraps 32-byte keys and never touches a
 * value. Nothing here logs or traces what it handles.
 */
import * as Crypto from "node:crypto"
import type { MasterKeyEntry } from "../MasterKey.js"

const IV_BYTES = 12
const TAG_BYTES = 16
const DATA_KEY_BYTES = 32

/** What is stored of one version of a value. */
export interface SealedValue {
  /** The nonce, the AES-256-GCM ciphertext of the value and its tag. */
  readonly ciphertext: Uint8Array
  /** The nonce, the data key wrapped under the master key, and its tag. */
  readonly wrappedKey: Uint8Array
  /** The id of the master key that wrapped the data key. */
  readonly masterKeyId: string
}

/** What a sealed value belongs to: bound into both encryptions. */
export interface ValueAddress {
  readonly secretId: string
  readonly version: number
}

const wrappingKey = (master: Uint8Array) =>
  new Uint8Array(Crypto.hkdfSync("sha256", master, new Uint8Array(0), "parley:vault-data-key", 32))

const associated = (purpose: "value" | "data-key", address: ValueAddress) =>
  Buffer.from(`parley:vault:${purpose}:${address.secretId}:${address.version}`, "utf8")

const encrypt = (key: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Uint8Array => {
  const iv = Crypto.randomBytes(IV_BYTES)
  const cipher = Crypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(aad)
  return new Uint8Array(Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]))
}

/** The plaintext, or undefined when the box is malformed, tampered with, or under another key or address. */
const decrypt = (key: Uint8Array, box: Uint8Array, aad: Uint8Array): Uint8Array | undefined => {
  if (box.length < IV_BYTES + TAG_BYTES) return undefined
  try {
    const decipher = Crypto.createDecipheriv("aes-256-gcm", key, box.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES
    })
    decipher.setAAD(aad)
    decipher.setAuthTag(box.subarray(box.length - TAG_BYTES))
    return new Uint8Array(
      Buffer.concat([decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)), decipher.final()])
    )
  } catch {
    return undefined
  }
}

/** Seal a value under a fresh data key, wrapped by `master`. */
export const sealValue = (value: string, address: ValueAddress, master: MasterKeyEntry): SealedValue => {
  const dataKey = Crypto.randomBytes(DATA_KEY_BYTES)
  try {
    return {
      ciphertext: encrypt(dataKey, Buffer.from(value, "utf8"), associated("value", address)),
      wrappedKey: encrypt(wrappingKey(master.key), dataKey, associated("data-key", address)),
      masterKeyId: master.id
    }
  } finally {
    dataKey.fill(0)
  }
}

/** The data key, unwrapped by `master`; undefined when it does not open. */
const unwrap = (sealed: SealedValue, address: ValueAddress, master: MasterKeyEntry) => {
  const dataKey = decrypt(wrappingKey(master.key), sealed.wrappedKey, associated("data-key", address))
  return dataKey?.length === DATA_KEY_BYTES ? dataKey : undefined
}

/** The value, or undefined when the wrapped key or the ciphertext does not open under `master` at this address. */
export const openValue = (sealed: SealedValue, address: ValueAddress, master: MasterKeyEntry): string | undefined => {
  const dataKey = unwrap(sealed, address, master)
  if (dataKey === undefined) return undefined
  try {
    const plaintext = decrypt(dataKey, sealed.ciphertext, associated("value", address))
    return plaintext === undefined ? undefined : new TextDecoder("utf-8", { fatal: true }).decode(plaintext)
  } catch {
    return undefined
  } finally {
    dataKey.fill(0)
  }
}

/**
 * The same value's data key wrapped by `to` instead of `from` (the ciphertext
 * is unchanged); undefined when `from` does not open it.
 */
export const rewrap = (
  sealed: SealedValue,
  address: ValueAddress,
  from: MasterKeyEntry,
  to: MasterKeyEntry
): SealedValue | undefined => {
  const dataKey = unwrap(sealed, address, from)
  if (dataKey === undefined) return undefined
  try {
    return {
      ciphertext: sealed.ciphertext,
      wrappedKey: encrypt(wrappingKey(to.key), dataKey, associated("data-key", address)),
      masterKeyId: to.id
    }
  } finally {
    dataKey.fill(0)
  }
}
