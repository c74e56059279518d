/**
 * The credential flows end to end over HTTP, unhappy paths included: email
 * verification and what an unverified account may not do, password recovery
 * (single-use, expiring links; every session ends; MFA survives it), and TOTP
 * MFA (enrolment, the login challenge, codes accepted once, recovery codes).
 * Behaviour goes through the typed client; raw requests stay for the wire
 * checks (answers alike byte for byte, a body the contract refuses, a 429 with
 * its Retry-After).
 */
import { Cookies } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Ref, Schema } from "effect"
import { VerifyEmailRequest } from "../../../src/domain/identity/EmailVerification.js"
import { ForgotPasswordRequest } from "../../../src/domain/identity/PasswordReset.js"
import { freshAddress, freshEmail, mailedToken, PASSWORD, post, signUp } from "../../support/Accounts.js"
import {
  challengePayload,
  clientWith,
  disablePayload,
  enableMfa,
  enrollPayload,
  loginPayload,
  logInTyped,
  resetPayload,
  signInTyped,
  tokenPayload,
  verifyPayload
} from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

const tokenBody = tokenPayload("ci", "viewer")
const verifying = (token: string) => ({ payload: Schema.decodeUnknownSync(VerifyEmailRequest)({ token }) })
const forgetting = (email: string) => ({ payload: Schema.decodeUnknownSync(ForgotPasswordRequest)({ email }) })

/** The login of an account with MFA: its challenge token. */
const challengeOf = (account: { readonly email: string; readonly address: string }, password = PASSWORD) =>
  Effect.flatMap(logInTyped(account, password), (result) =>
    result._tag === "MfaRequired"
      ? Effect.succeed(result.challengeToken)
      : Effect.dieMessage(`expected MfaRequired, got ${result._tag}`))

layer(testServer(), { excludeTestServices: true })("credentials", (it) => {
  it.effect("an unverified account may read but not create tokens; the mailed link verifies it, once", () =>
    Effect.gen(function*() {
      const account = yield* signUp({ verified: false })
      const client = yield* clientOf(account)
      const anonymous = yield* typedCaller({ address: account.address })
      const me = yield* client.account.me()
      expect(me.user.emailVerified).toBe(false)
      const refused = yield* failureOf(client.apiTokens.create({ payload: tokenBody }))
      expect(refused._tag).toBe("EmailNotVerified")
      const token = yield* mailedToken(account.email, "email-verification")
      yield* anonymous.auth.verifyEmail(verifying(token))
      expect(yield* failureOf(anonymous.auth.verifyEmail(verifying(token)))).toMatchObject({ _tag: "InvalidToken" })
      expect((yield* client.apiTokens.create({ payload: tokenBody })).name).toBe("ci")
    }))

  it.effect("resend-verification answers alike for any address and replaces the earlier link", () =>
    Effect.gen(function*() {
      const account = yield* signUp({ verified: false })
      const anonymous = yield* typedCaller({ address: account.address })
      const firstLink = yield* mailedToken(account.email, "email-verification")
      // Raw: the two answers are compared on the wire, status and bytes.
      const known = yield* post("/v1/auth/resend-verification", { email: account.email }, { address: account.address })
      const unknown = yield* post("/v1/auth/resend-verification", { email: freshEmail() }, { address: account.address })
      expect([known.status, unknown.status]).toEqual([202, 202])
      expect(known.text).toBe(unknown.text)
      yield* Effect.sleep("100 millis")
      const secondLink = yield* mailedToken(account.email, "email-verification")
      expect(secondLink).not.toBe(firstLink)
      expect((yield* failureOf(anonymous.auth.verifyEmail(verifying(firstLink))))._tag).toBe("InvalidToken")
      yield* anonymous.auth.verifyEmail(verifying(secondLink))
    }))

  it.effect("forgot-password answers alike; the reset link works once, ends every session and is not a sign-in", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const other = yield* signInTyped(account)
      // Raw: the two answers are compared on the wire, status and bytes.
      const known = yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })
      const unknown = yield* post("/v1/auth/forgot-password", { email: freshEmail() }, { address: account.address })
      expect([known.status, unknown.status]).toEqual([202, 202])
      expect(known.text).toBe(unknown.text)
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      // Through a cookie jar, as a browser: the reset sets no cookie.
      const jar = yield* Ref.make(Cookies.empty)
      const browser = yield* typedCaller({ address: account.address, jar })
      yield* browser.auth.resetPassword({ payload: resetPayload(token, "a brand new passphrase") })
      expect((yield* Ref.get(jar)).cookies).toEqual({})
      expect((yield* failureOf((yield* clientOf(account)).account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf(other.client.account.me()))._tag).toBe("Unauthenticated")
      const again = yield* failureOf(
        browser.auth.resetPassword({ payload: resetPayload(token, "yet another passphrase") })
      )
      expect(again).toMatchObject({ _tag: "InvalidToken", purpose: "password-reset" })
      const oldPassword = yield* failureOf(logInTyped(account, PASSWORD))
      expect(oldPassword._tag).toBe("InvalidCredentials")
      const newPassword = yield* logInTyped(account, "a brand new passphrase")
      expect(newPassword._tag).toBe("SignedIn")
    }))

  it.effect("an expired reset link is refused as expired", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const anonymous = yield* typedCaller({ address: account.address })
      yield* anonymous.auth.forgotPassword(forgetting(account.email))
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE one_time_tokens SET expires_at = now() - interval '1 minute' WHERE purpose = 'password-reset'`
      const expired = yield* failureOf(
        anonymous.auth.resetPassword({ payload: resetPayload(token, "a brand new passphrase") })
      )
      expect(expired).toMatchObject({ _tag: "TokenExpired", purpose: "password-reset" })
    }))

  it.effect("MFA: enrol with the password, verify a code, log in through the challenge; codes work once", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const client = yield* clientOf(account)
      const anonymous = yield* typedCaller({ address: account.address })
      const wrongPassword = yield* failureOf(client.mfa.enroll({ payload: enrollPayload("not it at all") }))
      expect(wrongPassword._tag).toBe("InvalidCredentials")
      const enrol = yield* client.mfa.enroll({ payload: enrollPayload(PASSWORD) })
      const secret = Redacted.value(enrol.secret)
      expect(Redacted.value(enrol.otpauthUri)).toContain(`secret=${secret}`)
      expect((yield* failureOf(client.mfa.verify({ payload: verifyPayload("000000") })))._tag)
        .toBe("InvalidMfaCode")
      const t0 = yield* settledNow
      const verified = yield* client.mfa.verify({ payload: verifyPayload(yield* codeAt(secret, t0)) })
      const recoveryCodes = verified.recoveryCodes.map(Redacted.value)
      expect(recoveryCodes).toHaveLength(10)
      expect((yield* client.account.me()).user.mfaEnabled).toBe(true)

      // Through a cookie jar, as a browser: a login that asks for the code sets no cookie yet.
      const jar = yield* Ref.make(Cookies.empty)
      const browser = yield* typedCaller({ address: account.address, jar })
      const login = yield* browser.auth.login({ payload: loginPayload(account.email, PASSWORD) })
      expect(login).toMatchObject({ _tag: "MfaRequired", mfaRequired: true, expiresIn: 300 })
      expect((yield* Ref.get(jar)).cookies).toEqual({})
      if (login._tag !== "MfaRequired") return yield* Effect.dieMessage("expected MfaRequired")
      const challengeToken = login.challengeToken
      const challenge = (token: Redacted.Redacted<string>, code: string) =>
        anonymous.mfa.challenge({ payload: challengePayload(token, code) })
      // The code just used to verify enrolment is spent: the next step's code (within the allowed skew) is not.
      const spent = yield* failureOf(challenge(challengeToken, yield* codeAt(secret, t0)))
      expect(spent._tag).toBe("InvalidMfaCode")
      const next = yield* codeAt(secret, t0, 1)
      const passed = yield* challenge(challengeToken, next)
      expect(passed).toMatchObject({ _tag: "SignedIn", user: { mfaEnabled: true } })
      const replayed = yield* failureOf(challenge(challengeToken, next))
      expect(replayed).toMatchObject({ _tag: "InvalidToken", purpose: "mfa-challenge" })

      // A second login: the code was accepted once, so it is refused; a recovery code works, once.
      const token2 = yield* challengeOf(account)
      expect((yield* failureOf(challenge(token2, next)))._tag).toBe("InvalidMfaCode")
      const recovered = yield* challenge(token2, recoveryCodes[0]!)
      expect(recovered._tag).toBe("SignedIn")
      const token3 = yield* challengeOf(account)
      const reused = yield* failureOf(challenge(token3, recoveryCodes[0]!))
      expect(reused._tag).toBe("InvalidMfaCode")
    }))

  it.effect("a challenge is spent after five wrong codes", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const { secret, t0 } = yield* enableMfa(account)
      const anonymous = yield* typedCaller({ address: account.address })
      const challengeToken = yield* challengeOf(account)
      for (let i = 0; i < 5; i++) {
        const wrong = yield* failureOf(anonymous.mfa.challenge({ payload: challengePayload(challengeToken, "123456") }))
        expect(wrong._tag).toBe("InvalidMfaCode")
      }
      const blocked = yield* failureOf(
        anonymous.mfa.challenge({ payload: challengePayload(challengeToken, yield* codeAt(secret, t0, 1)) })
      )
      expect(blocked).toMatchObject({ _tag: "InvalidToken", purpose: "mfa-challenge" })
    }))

  it.effect("wrong codes count against the account across challenges and addresses: then even a right one waits", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const { secret, t0 } = yield* enableMfa(account)
      const right = yield* codeAt(secret, t0, 1)
      const wrong = right === "000000" ? "111111" : "000000"
      // Someone with the password guesses from two addresses, five codes per login: ten wrong codes.
      for (const address of [freshAddress(), freshAddress()]) {
        const challengeToken = yield* challengeOf({ email: account.email, address })
        const guesser = yield* typedCaller({ address })
        for (let i = 0; i < 5; i++) {
          const guess = yield* failureOf(guesser.mfa.challenge({ payload: challengePayload(challengeToken, wrong) }))
          expect(guess._tag).toBe("InvalidMfaCode")
        }
      }
      const elsewhere = freshAddress()
      const challengeToken = yield* challengeOf({ email: account.email, address: elsewhere })
      // Raw: the limit is read on the wire, a 429 with its Retry-After header.
      const limited = yield* post(
        "/v1/auth/mfa/challenge",
        { challengeToken: Redacted.value(challengeToken), code: right },
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
      const { recoveryCodes, secret, t0 } = yield* enableMfa(account)
      const anonymous = yield* typedCaller({ address: account.address })
      yield* anonymous.auth.forgotPassword(forgetting(account.email))
      yield* Effect.sleep("100 millis")
      const token = yield* mailedToken(account.email, "password-reset")
      yield* anonymous.auth.resetPassword({ payload: resetPayload(token, "a brand new passphrase") })
      const login = yield* logInTyped(account, "a brand new passphrase")
      expect(login._tag).toBe("MfaRequired")
      if (login._tag !== "MfaRequired") return yield* Effect.dieMessage("expected MfaRequired")
      const session = yield* anonymous.mfa.challenge({
        payload: challengePayload(login.challengeToken, recoveryCodes[1]!)
      })
      const bearer = session.accessToken
      const NEW = "a brand new passphrase"
      const currentCode = yield* codeAt(secret, t0, 1)
      // Raw: a body without the password is refused by the contract's schema before it is sent.
      expect((yield* post("/v1/auth/mfa/disable", { code: currentCode }, { token: Redacted.value(bearer) })).status)
        .toBe(400)
      const client = yield* clientWith(bearer, account.address)
      const wrongPassword = yield* failureOf(client.mfa.disable({ payload: disablePayload(PASSWORD, currentCode) }))
      expect(wrongPassword._tag).toBe("InvalidCredentials")
      expect((yield* failureOf(client.mfa.disable({ payload: disablePayload(NEW, "123456") })))._tag)
        .toBe("InvalidMfaCode")
      yield* client.mfa.disable({ payload: disablePayload(NEW, currentCode) })
      const plain = yield* logInTyped(account, "a brand new passphrase")
      expect(plain._tag).toBe("SignedIn")
    }))
})
