/**
 * Opaque secrets the server hands out (refresh tokens, mail links, API
 * tokens, MFA challenge tokens, recovery codes) and the hashes it stores in
 * their place. The tokens carry 256 random bits, so a single fast hash is
 * right for them: there is nothing to guess that a slow hash would protect.
 */
import * as Crypto from "node:crypto"

/** A new token: 32 random bytes as base64url (43 characters) after an optional prefix such as `pat_`. */
export const generateToken = (prefix = ""): string => prefix + Crypto.randomBytes(32).toString("base64url")

/** What is stored for a token: its SHA-256 in lowercase hex (matches the `Sha256Hex` schema). */
export const hashToken = (token: string): string => Crypto.createHash("sha256").update(token, "utf8").digest("hex")

/** Recovery-code characters: lower-case letters and digits without the look-alikes 0/o, 1/l/i. */
export const RECOVERY_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"

/** A new recovery code, `xxxxx-xxxxx` from `RECOVERY_CODE_ALPHABET` (about 49 bits); already normalised. */
export const generateRecoveryCode = (): string => {
  const characters = Array.from(
    { length: 10 },
    () => RECOVERY_CODE_ALPHABET[Crypto.randomInt(RECOVERY_CODE_ALPHABET.length)]
  )
  return `${characters.slice(0, 5).join("")}-${characters.slice(5).join("")}`
}

/**
 * A recovery code as typed (any case, dash optional, stray spaces) in the
 * form `generateRecoveryCode` produces, so `hashToken(normaliseRecoveryCode(typed))`
 * matches the stored hash. Input that cannot be a code comes back cleaned
 * but otherwise unchanged, and so matches nothing.
 */
export const normaliseRecoveryCode = (code: string): string => {
  const cleaned = code.replace(/[\s-]/g, "").toLowerCase()
  return cleaned.length === 10 ? `${cleaned.slice(0, 5)}-${cleaned.slice(5)}` : cleaned
}
