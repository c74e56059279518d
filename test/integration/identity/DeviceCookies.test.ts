/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies") end to end over HTTP: a flood of wrong passwords from many
 * addresses shuts the account for clients without a device cookie, for at
 * most the lock's window, while the rightful user's browser (its cookie from
 * an earlier sign-in) still signs in; a forged, tampered or other account's
 * cookie earns nothing; and a cookie that fails too often is locked out itself.
 * Mostly wire checks (Set-Cookie attributes, Retry-After, forged cookie
 * values), sent raw; sign-ins whose point is the answer go through the typed
 * client with a cookie jar holding just the device cookie, as the raw ones send it.
 */
import { Cookies, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Option, Ref } from "effect"
import * as Crypto from "node:crypto"
import { DEVICE_COOKIE } from "../../../src/domain/identity/DeviceCookie.js"
import { loginFailuresPerAccount, loginFailuresPerDevice } from "../../../src/services/identity/RateRules.js"
import { as, freshAddress, PASSWORD, signUp } from "../../support/Accounts.js"
import { exchange, postRaw } from "../../support/Http.js"
import { loginPayload } from "../../support/IdentityCalls.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

const WRONG = "not the password at all"

/** A login as a browser would send it: from an address, with the device cookie it holds (if any). */
const login = (email: string, password: string, caller: { readonly address: string; readonly device?: string }) =>
  exchange(
    as(postRaw("/v1/auth/login", JSON.stringify({ email, password })), { address: caller.address }).pipe(
      caller.device === undefined
        ? (request) => request
        : HttpClientRequest.setHeader("cookie", `${DEVICE_COOKIE}=${caller.device}`)
    )
  )

/**
 * The same login through the typed client: a browser at `address` whose cookie jar holds only the device
 * cookie (if any). Answers the login's result and the jar, with what the answer set.
 */
const loginTyped = (email: string, password: string, caller: { readonly address: string; readonly device?: string }) =>
  Effect.gen(function*() {
    const jar = yield* Ref.make(
      caller.device === undefined ? Cookies.empty : Cookies.unsafeSet(Cookies.empty, DEVICE_COOKIE, caller.device)
    )
    const client = yield* typedCaller({ address: caller.address, jar })
    return { result: yield* client.auth.login({ payload: loginPayload(email, password) }), jar }
  })

/** The device cookie a successful login set (and a failed test if it set none). */
const deviceCookieOf = (cookies: Cookies.Cookies) => Option.getOrThrow(Cookies.get(cookies, DEVICE_COOKIE))

const windowSeconds = (rule: { readonly window: Duration.DurationInput }) =>
  Duration.toSeconds(Duration.decode(rule.window))

/**
 * Store the account's password as an older, cheaper configuration would have hashed it (scrypt N=2^10, r=8,
 * p=1; Parley still verifies such hashes and upgrades them at the next right password): a flood of a hundred
 * wrong passwords then costs the shared test machine a second, not a minute of scrypt at today's parameters.
 */
const withCheapHash = (userId: string) =>
  Effect.gen(function*() {
    const salt = Crypto.randomBytes(16)
    const key = Crypto.scryptSync(Buffer.from(PASSWORD.normalize("NFC")), salt, 32, { N: 2 ** 10, r: 8, p: 1 })
    const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "")
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE users SET password_hash = ${`$scrypt$ln=10,r=8,p=1$${b64(salt)}$${
      b64(key)
    }`} WHERE id = ${userId}`
  })

let flooder = 0
/** An attacker's address, a new one per attempt: no per-address limit ever applies. */
const attackerAddress = () => {
  flooder++
  return `203.0.${(flooder >> 8) % 256}.${(flooder % 254) + 1}`
}

/** Wrong passwords for `email` from ever new addresses until the account's lock answers 429 (at most `most`). */
const floodUntilLocked = (email: string, most: number) =>
  Effect.gen(function*() {
    // Most of the flood in parallel, as an attacker's botnet sends it; then one by one to the first refusal,
    // wherever the hour's window boundary fell.
    const opening = yield* Effect.forEach(
      Array.from({ length: loginFailuresPerAccount.limit }),
      () => login(email, WRONG, { address: attackerAddress() }),
      { concurrency: 4 }
    )
    expect(opening.every((res) => res.status === 401 || res.status === 429)).toBe(true)
    for (let sent = opening.length; sent < most; sent++) {
      const res = yield* login(email, WRONG, { address: attackerAddress() })
      if (res.status === 429) return res
      expect(res.status).toBe(401)
    }
    return yield* Effect.dieMessage(`the account was not locked after ${most} wrong passwords`)
  })

layer(testServer(), { excludeTestServices: true })("device cookies", (it) => {
  it.effect("a flood from many addresses locks cookie-less logins, for at most the window, not the user's browser", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const home = freshAddress()
      // Set-Cookie attributes, Retry-After headers and cookies not set are wire checks: raw.
      const first = yield* login(account.email, PASSWORD, { address: home })
      expect(first.status).toBe(200)
      const device = deviceCookieOf(first.cookies)
      expect(device.options).toMatchObject({ httpOnly: true, secure: true, sameSite: "strict", path: "/" })
      expect(Duration.toSeconds(Duration.decode(device.options!.maxAge!))).toBe(365 * 24 * 60 * 60)
      expect(first.text).not.toContain(device.value)
      yield* withCheapHash(account.userId)

      const locked = yield* floodUntilLocked(account.email, 2 * loginFailuresPerAccount.limit)
      expect(locked.json._tag).toBe("RateLimited")
      // The attacker keeps hammering: refused attempts are not counted, so the lock does not grow.
      const hammered = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => login(account.email, WRONG, { address: attackerAddress() }),
        { concurrency: 4 }
      )
      expect(hammered.map((res) => res.status)).toEqual(hammered.map(() => 429))

      // Cookie-less, even the right password waits, and for no longer than the lock's window.
      const stranger = yield* login(account.email, PASSWORD, { address: freshAddress() })
      expect(stranger.status).toBe(429)
      const retryAfter = Number(stranger.headers["retry-after"])
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(windowSeconds(loginFailuresPerAccount))
      for (const res of [locked, ...hammered]) {
        expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(windowSeconds(loginFailuresPerAccount))
      }
      expect(Cookies.get(stranger.cookies, DEVICE_COOKIE)._tag).toBe("None")

      // The user's browser presents its device cookie and signs in, from home or from anywhere, and gets a new one.
      const user = yield* loginTyped(account.email, PASSWORD, { address: home, device: device.value })
      expect(user.result._tag).toBe("SignedIn")
      const renewed = deviceCookieOf(yield* Ref.get(user.jar)).value
      expect(renewed).not.toBe(device.value)
      const travelling = yield* loginTyped(account.email, PASSWORD, { address: freshAddress(), device: renewed })
      expect(travelling.result._tag).toBe("SignedIn")
      // The cookie's typo is a plain wrong password, not a lockout.
      const typo = yield* failureOf(loginTyped(account.email, WRONG, { address: home, device: device.value }))
      expect(typo._tag).toBe("InvalidCredentials")
    }))

  it.effect("a forged, tampered, another account's or malformed device cookie gives no exemption", () =>
    Effect.gen(function*() {
      const victim = yield* signUp()
      const attacker = yield* signUp()
      const own = yield* login(attacker.email, PASSWORD, { address: attacker.address })
      const othersCookie = deviceCookieOf(own.cookies).value
      const victimsLogin = yield* login(victim.email, PASSWORD, { address: victim.address })
      const genuine = deviceCookieOf(victimsLogin.cookies).value
      yield* withCheapHash(victim.userId)
      yield* floodUntilLocked(victim.email, 2 * loginFailuresPerAccount.limit)

      // Forged cookie values, and the genuine one for comparison, sent the same way: wire checks, raw.
      const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1)
      const [version, userId, nonce, expiry, signature] = genuine.split(".") as [string, string, string, string, string]
      const forgeries = {
        "another account's cookie": othersCookie,
        "another account's cookie with this user id": [version, victim.userId, ...othersCookie.split(".").slice(2)]
          .join("."),
        "a tampered signature": [version, userId, nonce, expiry, flip(signature, 5)].join("."),
        "a tampered nonce": [version, userId, flip(nonce, 3), expiry, signature].join("."),
        "a later expiry": [version, userId, nonce, String(Number(expiry) + 1), signature].join("."),
        "no signature": [version, userId, nonce, expiry].join("."),
        "garbage": "x".repeat(4000),
        "an empty cookie": ""
      }
      for (const [name, cookie] of Object.entries(forgeries)) {
        const res = yield* login(victim.email, PASSWORD, { address: freshAddress(), device: cookie })
        expect({ name, status: res.status }).toEqual({ name, status: 429 })
      }
      // The genuine cookie, for comparison, still signs in.
      expect((yield* login(victim.email, PASSWORD, { address: freshAddress(), device: genuine })).status).toBe(200)
    }))

  it.effect("a device cookie that fails too often is locked out itself, and only it", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const first = yield* loginTyped(account.email, PASSWORD, { address: freshAddress() })
      const device = deviceCookieOf(yield* Ref.get(first.jar)).value
      const second = yield* loginTyped(account.email, PASSWORD, { address: freshAddress() })
      const otherDevice = deviceCookieOf(yield* Ref.get(second.jar)).value
      yield* withCheapHash(account.userId)
      // Someone at the browser guesses (from ever new addresses, so no per-address limit helps).
      for (let i = 0; i < loginFailuresPerDevice.limit; i++) {
        const res = yield* failureOf(loginTyped(account.email, WRONG, { address: attackerAddress(), device }))
        expect(res._tag).toBe("InvalidCredentials")
      }
      // The lock's Retry-After header is a wire check: raw.
      const lockedOut = yield* login(account.email, PASSWORD, { address: freshAddress(), device })
      expect(lockedOut.status).toBe(429)
      expect(lockedOut.json._tag).toBe("RateLimited")
      expect(Number(lockedOut.headers["retry-after"])).toBeLessThanOrEqual(windowSeconds(loginFailuresPerDevice))
      // The cookie's failures were its own: the account is not locked for others, nor for another device.
      const other = yield* loginTyped(account.email, PASSWORD, { address: freshAddress(), device: otherDevice })
      expect(other.result._tag).toBe("SignedIn")
      expect((yield* loginTyped(account.email, PASSWORD, { address: freshAddress() })).result._tag).toBe("SignedIn")
    }))
})
