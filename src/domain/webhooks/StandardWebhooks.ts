/**
 * The Standard Webhooks signing scheme (https://www.standardwebhooks.com), as
 * Svix and many SaaS senders use it: the signed content is
 * `${webhook-id}.${webhook-timestamp}.${raw body}`, the signature
 * `v1,` + base64(HMAC-SHA256(key, content)) where the key is the base64 part of
 * a `whsec_` secret, and a `webhook-signature` header holds one or more
 * space-separated signatures (several during a secret's rotation; any one that
 * matches passes). A timestamp more than five minutes from the receiver's
 * clock is refused either way, so a captured delivery cannot be replayed
 * later; remembering ids refuses a replay inside the window (the caller's
 * part: it needs storage). Checked against the scheme's published vector
 * (test/fixtures/corpus/vectors/standard-webhooks.json).
 */
import * as Crypto from "node:crypto"

/** How far a delivery's timestamp may be from the receiver's clock, either way: five minutes. */
export const TOLERANCE_SECONDS = 5 * 60

/** The most signatures a header may carry (a sender rotating secrets sends two or three). */
export const MAX_SIGNATURES = 10

const SECRET_PREFIX = "whsec_"

/** The HMAC key of a `whsec_` secret (the prefix is optional, as the reference libraries accept both). */
export const secretKey = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64")

/** A new signing secret: `whsec_` and base64 of 32 random bytes. */
export const generateSecret = (): string => SECRET_PREFIX + Crypto.randomBytes(32).toString("base64")

/** What a signature covers: the delivery's id, its timestamp in Unix seconds and its raw body. */
export interface SignedContent {
  readonly id: string
  readonly timestamp: number
  readonly body: string | Uint8Array
}

const digest = (key: Buffer, { body, id, timestamp }: SignedContent): Buffer =>
  Crypto.createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest()

/** The `webhook-signature` value of a delivery signed with one secret: `v1,<base64>`. */
export const sign = (secret: string, content: SignedContent): string =>
  `v1,${digest(secretKey(secret), content).toString("base64")}`

/** The three headers of a delivery signed with `secret`. */
export const signedHeaders = (
  secret: string,
  content: SignedContent
): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } => ({
  "webhook-id": content.id,
  "webhook-timestamp": String(content.timestamp),
  "webhook-signature": sign(secret, content)
})

/** Why a delivery did not verify; said to the sender, never revealing the expected signature. */
export type VerifyFailure =
  | { readonly reason: "stale"; readonly message: string }
  | { readonly reason: "malformed"; readonly message: string }
  | { readonly reason: "mismatch"; readonly message: string }

/** What verification needs besides the delivery: the accepted secrets (current and rotating out) and the clock. */
export interface VerifyOptions {
  readonly secrets: ReadonlyArray<string>
  readonly nowSeconds: number
  readonly toleranceSeconds?: number
}

const V1 = /^v1,([A-Za-z0-9+/]{43}=)$/

/**
 * Checks a delivery: the timestamp within the tolerance, then any `v1`
 * signature of the header equal (in constant time) to the body's signature
 * under any of the secrets. Signatures of other versions are skipped, as the
 * scheme asks; a header with none we can read is malformed.
 */
export const verify = (
  content: SignedContent,
  signatureHeader: string,
  { nowSeconds, secrets, toleranceSeconds = TOLERANCE_SECONDS }: VerifyOptions
): VerifyFailure | undefined => {
  if (!Number.isSafeInteger(content.timestamp) || Math.abs(nowSeconds - content.timestamp) > toleranceSeconds) {
    return {
      reason: "stale",
      message: `webhook-timestamp is more than ${toleranceSeconds} seconds from the server's clock`
    }
  }
  const candidates = signatureHeader.split(" ").filter((part) => part.length > 0)
  if (candidates.length > MAX_SIGNATURES) {
    return { reason: "malformed", message: `webhook-signature carries more than ${MAX_SIGNATURES} signatures` }
  }
  const given = candidates.flatMap((part) => {
    const match = V1.exec(part)
    return match === null ? [] : [Buffer.from(match[1]!, "base64")]
  })
  if (given.length === 0) {
    return { reason: "malformed", message: "webhook-signature has no `v1,<base64 HMAC-SHA256>` signature" }
  }
  const matches = secrets.some((secret) => {
    const expected = digest(secretKey(secret), content)
    return given.some((signature) =>
      signature.length === expected.length && Crypto.timingSafeEqual(signature, expected)
    )
  })
  return matches ? undefined : { reason: "mismatch", message: "no signature of webhook-signature matches the body" }
}
