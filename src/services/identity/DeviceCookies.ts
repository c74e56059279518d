/**
 * Issues and checks device cookies (see `domain/identity/DeviceCookie.ts`).
 * A cookie is `v1.<user id>.<nonce>.<expiry>.<signature>`: the signature is
 * HMAC-SHA256 over everything before it, under a key derived (HKDF) from the
 * master key for this purpose alone. Binding the user id rather than the email
 * keeps a device trusted across an email change; the expiry is signed too, so
 * a copied cookie stops working after a year whatever the browser keeps. Nothing
 * is stored: a cookie that fails too often is locked out by the rate limiter,
 * keyed by its nonce (the lockout list of OWASP's scheme).
 */
import { Clock, Effect, Option } from "effect"
import * as Crypto from "node:crypto"
import { DEVICE_COOKIE_MAX_AGE_SECONDS } from "../../domain/identity/DeviceCookie.js"
import type { UserId } from "../../domain/identity/Ids.js"
import { MasterKey } from "../MasterKey.js"

const VERSION = "v1"
const NONCE_BYTES = 16
/** A cookie longer than this is not one Parley issued: it is not even parsed. */
const MAX_LENGTH = 256
const shape = /^v1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/

/** A device this account signed in from before; `nonce` names it in the per-device failure limit. */
export interface TrustedDevice {
  readonly nonce: string
}

export class DeviceCookies extends Effect.Service<DeviceCookies>()("parley/services/identity/DeviceCookies", {
  effect: Effect.gen(function*() {
    const masterKeys = yield* MasterKey
    const keyOf = (master: Uint8Array) =>
      Buffer.from(Crypto.hkdfSync("sha256", master, new Uint8Array(0), "parley:device-cookie", 32))
    // Issued under the current master key; accepted under any of the ring, so a master-key rotation trusts devices still.
    const [key, ...previousKeys] = masterKeys.ring.map((entry) => keyOf(entry.key))
    const signWith = (with_: Buffer, payload: string) => Crypto.createHmac("sha256", with_).update(payload).digest()
    const sign = (payload: string) => signWith(key!, payload)

    /** A new cookie value for a browser that just signed in to `userId`'s account. */
    const issue = Effect.fn("DeviceCookies.issue")(function*(userId: UserId) {
      const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
      const nonce = Crypto.randomBytes(NONCE_BYTES).toString("base64url")
      const payload = `${VERSION}.${userId}.${nonce}.${nowSeconds + DEVICE_COOKIE_MAX_AGE_SECONDS}`
      return `${payload}.${sign(payload).toString("base64url")}`
    })

    /**
     * The device a cookie names, when it is one Parley signed, for this very
     * account, and not expired; a forged, tampered, expired or other account's
     * cookie (or none) is an untrusted client.
     */
    const trusted = Effect.fn("DeviceCookies.trusted")(
      function*(cookie: string | undefined, userId: UserId) {
        if (cookie === undefined || cookie.length > MAX_LENGTH) return Option.none<TrustedDevice>()
        const parts = shape.exec(cookie)
        if (parts === null || parts[1] !== userId) return Option.none<TrustedDevice>()
        const payload = cookie.slice(0, cookie.lastIndexOf("."))
        const signature = Buffer.from(parts[4]!, "base64url")
        const signedByRing = [key!, ...previousKeys].some((candidate) =>
          Crypto.timingSafeEqual(signature, signWith(candidate, payload))
        )
        if (!signedByRing) return Option.none<TrustedDevice>()
        if (Number(parts[3]) * 1000 <= (yield* Clock.currentTimeMillis)) return Option.none<TrustedDevice>()
        return Option.some<TrustedDevice>({ nonce: parts[2]! })
      }
    )

    return { issue, trusted } as const
  })
}) {}
