/**
 * The credential flows end to end over HTTP, unhappy paths included: email
 * verification and what an unverified account may not do, password recovery
 * (single-use, expiring links; every session ends; MFA survives it), and TOTP
 * MFA (enrolment, the login challenge, codes accepted once, recovery codes).
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { as, freshAddress, freshEmail, logIn, mailedToken, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"

const get = (url: string, caller: Parameters<typeof as>[1]) => exchange(as(HttpClientRequest.get(url), caller))

const tokenBody = { name: "ci", role: "viewer" }

layer(testServer(), { excludeTestServices: true })("credentials", (it) => {
  it.effect("an unverified account may read but not create tokens; the mailed link verifies it, once", () =>
    Effect.gen(function*() {
      const account = yield* signUp({ verified: false })
      const me = yield* get("/v1/auth/me", { token: account.token })
      expect(me.json.user.emailVerified).toBe(false)
      const refused = yield* post("/v1/api-tokens", tokenBody, { token: account.token })
      expect(refused.status).toBe(403)
      expect(refused.json._tag).toBe("EmailNotVerified")
      const token = yield* mailedToken(account.email, "email-verification")
      expect((yield* post("/v1/auth/verify-email", { token })).status).toBe(204)
      expect((yield* post("/v1/auth/verify-email", { token })).json).toMatchObject({ _tag: "InvalidToken" })
      expect((yield* post("/v1/api-tokens", tokenBody, { token: account.token })).status).toBe(201)
    }))

  it.effect("resend-verification answers alike for any address and replaces the earlier link", () =>
    Effect.gen(function*() {
      const account = yield* signUp({ verified: false })
      const firstLink = yield* mailedToken(account.email, "email-verification")
      const known = yield* post("/v1/auth/resend-verification", { email: account.email }, { address: account.address })
      const unknown = yield* post("/v1/auth/resend-verification", { email: freshEmail() }, { address: account.address })
      expect([known.status, unknown.status]).toEqual([202, 202])
      expect(known.text).toBe(unknown.text)
      yield* Effect.sleep("100 millis")
      const secondLink = yield* mailedToken(account.email, "email-verification")
      expect(secondLink).not.toBe(firstLink)
      expect((yield* post("/v1/auth/verify-email", { token: firstLink })).status).toBe(400)
      expect((yield* post("/v1/auth/verify-email", { token: secondLink })).status).toBe(204)
    }))

  it.effect("forgot-password answers alike; the reset link works once, ends every session and is not a sign-in", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const other = yield* logIn(account)
      const known = yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })
      const unknown = yield* post("/v1/auth/forgot-password", { email: freshEmail() }, { address: account.address })
      expect([known.status, unknown.status]).toEqual([202, 202])
      expect(known.text).toBe(unknown.text)
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      const reset = yield* post("/v1/auth/reset-password", { token, password: "a brand new passphrase" })
      expect(reset.status).toBe(204)
      expect(reset.cookies.cookies).toEqual({})
      expect((yield* get("/v1/auth/me", { token: account.token })).status).toBe(401)
      expect((yield* get("/v1/auth/me", { token: other.json.accessToken })).status).toBe(401)
      const again = yield* post("/v1/auth/reset-password", { token, password: "yet another passphrase" })
      expect(again.json).toMatchObject({ _tag: "InvalidToken", purpose: "password-reset" })
      const oldPassword = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      expect(oldPassword.status).toBe(401)
      const newPassword = yield* post("/v1/auth/login", { email: account.email, password: "a brand new passphrase" }, {
        address: account.address
      })
      expect(newPassword.status).toBe(200)
    }))

  it.effect("an expired reset link is refused as expired", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE one_time_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'password-reset'`
      const expired = yield* post("/v1/auth/reset-password", { token, password: "a brand new passphrase" })
      expect(expired.json).toMatchObject({ _tag: "TokenExpired", purpose: "password-reset" })
    }))

  it.effect("MFA: enrol with the password, verify a code, log in through the challenge; codes work once", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const wrongPassword = yield* post("/v1/auth/mfa/enroll", { password: "not it at all" }, { token: account.token })
      expect(wrongPassword.json._tag).toBe("InvalidCredentials")
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      expect(enrol.status).toBe(200)
      const secret = enrol.json.secret as string
      expect(enrol.json.otpauthUri).toContain(`secret=${secret}`)
      expect((yield* post("/v1/auth/mfa/verify", { code: "000000" }, { token: account.token })).json._tag)
        .toBe("InvalidMfaCode")
      const t0 = yield* settledNow
      const verified = yield* post("/v1/auth/mfa/verify", { code: yield* codeAt(secret, t0) }, { token: account.token })
      expect(verified.status).toBe(200)
      const recoveryCodes = verified.json.recoveryCodes as Array<string>
      expect(recoveryCodes).toHaveLength(10)
      expect((yield* get("/v1/auth/me", { token: account.token })).json.user.mfaEnabled).toBe(true)

      const login = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      expect(login.json).toMatchObject({ _tag: "MfaRequired", mfaRequired: true, expiresIn: 300 })
      expect(login.cookies.cookies).toEqual({})
      const challengeToken = login.json.challengeToken as string
      // The code just used to verify enrolment is spent: the next step's code (within the allowed skew) is not.
      const spent = yield* post("/v1/auth/mfa/challenge", { challengeToken, code: yield* codeAt(secret, t0) })
      expect(spent.json._tag).toBe("InvalidMfaCode")
      const next = yield* codeAt(secret, t0, 1)
      const passed = yield* post("/v1/auth/mfa/challenge", { challengeToken, code: next })
      expect(passed.json).toMatchObject({ _tag: "SignedIn", user: { mfaEnabled: true } })
      const replayed = yield* post("/v1/auth/mfa/challenge", { challengeToken, code: next })
      expect(replayed.json).toMatchObject({ _tag: "InvalidToken", purpose: "mfa-challenge" })

      // A second login: the code was accepted once, so it is refused; a recovery code works, once.
      const login2 = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      const token2 = login2.json.challengeToken as string
      expect((yield* post("/v1/auth/mfa/challenge", { challengeToken: token2, code: next })).json._tag).toBe(
        "InvalidMfaCode"
      )
      const recovered = yield* post("/v1/auth/mfa/challenge", { challengeToken: token2, code: recoveryCodes[0] })
      expect(recovered.json._tag).toBe("SignedIn")
      const login3 = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      const reused = yield* post("/v1/auth/mfa/challenge", {
        challengeToken: login3.json.challengeToken,
        code: recoveryCodes[0]
      })
      expect(reused.json._tag).toBe("InvalidMfaCode")
    }))

  it.effect("a challenge is spent after five wrong codes", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      const t0 = yield* settledNow
      yield* post("/v1/auth/mfa/verify", { code: yield* codeAt(enrol.json.secret, t0) }, { token: account.token })
      const login = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      const challengeToken = login.json.challengeToken as string
      for (let i = 0; i < 5; i++) {
        const wrong = yield* post("/v1/auth/mfa/challenge", { challengeToken, code: "123456" }, {
          address: account.address
        })
        expect(wrong.json._tag).toBe("InvalidMfaCode")
      }
      const blocked = yield* post("/v1/auth/mfa/challenge", {
        challengeToken,
        code: yield* codeAt(enrol.json.secret, t0, 1)
      }, {
        address: account.address
      })
      expect(blocked.json).toMatchObject({ _tag: "InvalidToken", purpose: "mfa-challenge" })
    }))

  it.effect("wrong codes count against the account across challenges and addresses: then even a right one waits", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      const t0 = yield* settledNow
      yield* post("/v1/auth/mfa/verify", { code: yield* codeAt(enrol.json.secret, t0) }, { token: account.token })
      const right = yield* codeAt(enrol.json.secret, t0, 1)
      const wrong = right === "000000" ? "111111" : "000000"
      // Someone with the password guesses from two addresses, five codes per login: ten wrong codes.
      for (const address of [freshAddress(), freshAddress()]) {
        const login = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, { address })
        for (let i = 0; i < 5; i++) {
          const guess = yield* post("/v1/auth/mfa/challenge", {
            challengeToken: login.json.challengeToken,
            code: wrong
          }, {
            address
          })
          expect(guess.json._tag).toBe("InvalidMfaCode")
        }
      }
      const elsewhere = freshAddress()
      const login = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, { address: elsewhere })
      const limited = yield* post(
        "/v1/auth/mfa/challenge",
        { challengeToken: login.json.challengeToken, code: right },
        {
          address: elsewhere
        }
      )
      expect(limited.status).toBe(429)
      expect(limited.json._tag).toBe("RateLimited")
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0)
    }))

  it.effect("a password reset does not bypass MFA; disabling MFA needs the password and a code", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      const t0 = yield* settledNow
      const verified = yield* post("/v1/auth/mfa/verify", { code: yield* codeAt(enrol.json.secret, t0) }, {
        token: account.token
      })
      yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      yield* post("/v1/auth/reset-password", { token, password: "a brand new passphrase" })
      const login = yield* post("/v1/auth/login", { email: account.email, password: "a brand new passphrase" }, {
        address: account.address
      })
      expect(login.json._tag).toBe("MfaRequired")
      const session = yield* post("/v1/auth/mfa/challenge", {
        challengeToken: login.json.challengeToken,
        code: verified.json.recoveryCodes[1]
      })
      const bearer = session.json.accessToken as string
      const NEW = "a brand new passphrase"
      const currentCode = yield* codeAt(enrol.json.secret, t0, 1)
      expect((yield* post("/v1/auth/mfa/disable", { code: currentCode }, { token: bearer })).status).toBe(400)
      const wrongPassword = yield* post("/v1/auth/mfa/disable", { password: PASSWORD, code: currentCode }, {
        token: bearer
      })
      expect(wrongPassword.json._tag).toBe("InvalidCredentials")
      expect((yield* post("/v1/auth/mfa/disable", { password: NEW, code: "123456" }, { token: bearer })).json._tag)
        .toBe("InvalidMfaCode")
      const disabled = yield* post("/v1/auth/mfa/disable", { password: NEW, code: currentCode }, { token: bearer })
      expect(disabled.status).toBe(204)
      const plain = yield* post("/v1/auth/login", { email: account.email, password: "a brand new passphrase" }, {
        address: account.address
      })
      expect(plain.json._tag).toBe("SignedIn")
    }))
})
