/**
 * Every auth flow end to end over HTTP through the typed client of the
 * contract (`HttpApiClient.make(Api)`), as another service or a front end
 * would call Parley: sign-up, verification, login, refresh with rotation and
 * reuse detection, logout, sessions, password recovery and change,
 * re-authentication, and TOTP MFA, the unhappy paths included (wrong, expired
 * and reused tokens, wrong and replayed codes, a reset of an MFA account).
 * Errors arrive as the contract's typed errors.
 */
import { Cookies } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Ref } from "effect"
import { freshAddress, freshEmail, mailedToken, PASSWORD } from "../../support/Accounts.js"
import { testServer } from "../../support/TestServer.js"
import { codeAt as totpCodeAt, settledNow } from "../../support/TotpCodes.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

const secret = (value: string) => Redacted.make(value)
const NEW_PASSWORD = "a completely new passphrase"

/** The TOTP code of a seed, `offsetSteps` steps after `at`, as the typed client sends it. */
const codeAt = (seed: Redacted.Redacted<string>, at: number, offsetSteps = 0) =>
  Effect.map(totpCodeAt(seed, at, offsetSteps), (code) => Redacted.make(code))

/** A new account signed up through the typed client, with a browser-like cookie jar. */
const signUpTyped = Effect.gen(function*() {
  const email = freshEmail("typed")
  const address = freshAddress()
  const jar = yield* Ref.make(Cookies.empty)
  const anonymous = yield* typedCaller({ address, jar })
  const signedIn = yield* anonymous.auth.signup({ payload: { email, password: secret(PASSWORD) } })
  const client = yield* typedCaller({ address, token: signedIn.accessToken })
  return { email, address, jar, signedIn, client, anonymous }
})

/** Sign in again as an account (a new session) and answer a client holding its token. */
const signInTyped = (account: { email: string; address: string }, password = PASSWORD) =>
  Effect.gen(function*() {
    const anonymous = yield* typedCaller({ address: account.address })
    const result = yield* anonymous.auth.login({ payload: { email: account.email, password: secret(password) } })
    if (result._tag !== "SignedIn") return yield* Effect.dieMessage("expected SignedIn")
    const client = yield* typedCaller({ address: account.address, token: result.accessToken })
    return { client, sessionId: (yield* client.account.me()).sessionId }
  })

layer(testServer(), { excludeTestServices: true })("auth flows through the typed client", (it) => {
  it.effect("signup, verification, login with a wrong and a right password", () =>
    Effect.gen(function*() {
      const { address, anonymous, client, email, signedIn } = yield* signUpTyped
      expect(signedIn).toMatchObject({ _tag: "SignedIn", tokenType: "Bearer", expiresIn: 900 })
      expect(signedIn.user).toMatchObject({ email, emailVerified: false, mfaEnabled: false })
      expect((yield* failureOf(anonymous.auth.signup({ payload: { email, password: secret(PASSWORD) } })))._tag)
        .toBe("EmailTaken")
      const weak = yield* failureOf(
        anonymous.auth.signup({ payload: { email: freshEmail(), password: secret("password1234") } })
      )
      expect(weak).toMatchObject({ _tag: "WeakPassword", reason: "common" })

      const token = yield* mailedToken(email, "email-verification")
      yield* anonymous.auth.verifyEmail({ payload: { token: secret(token) } })
      expect((yield* failureOf(anonymous.auth.verifyEmail({ payload: { token: secret(token) } })))._tag)
        .toBe("InvalidToken")
      yield* anonymous.auth.resendVerification({ payload: { email: freshEmail("nobody") } })
      expect((yield* client.account.me()).user.emailVerified).toBe(true)

      const wrong = yield* failureOf(
        anonymous.auth.login({ payload: { email, password: secret("not the password at all") } })
      )
      expect(wrong._tag).toBe("InvalidCredentials")
      const unknown = yield* failureOf(
        anonymous.auth.login({ payload: { email: freshEmail("ghost"), password: secret(PASSWORD) } })
      )
      expect(unknown).toEqual(wrong)
      const { client: second } = yield* signInTyped({ email, address })
      expect((yield* second.account.me()).user.email).toBe(email)
    }))

  it.effect("refresh rotates the token; presenting a used one ends the session", () =>
    Effect.gen(function*() {
      const { address, anonymous, jar } = yield* signUpTyped
      const stale = yield* Ref.get(jar)
      const refreshed = yield* anonymous.auth.refresh()
      const fresh = yield* typedCaller({ address, token: refreshed.accessToken })
      expect((yield* fresh.account.me()).user.id).toBe(refreshed.user.id)

      // Someone replays the first refresh token: the whole session ends.
      const thief = yield* typedCaller({ address, jar: yield* Ref.make(stale) })
      expect((yield* failureOf(thief.auth.refresh()))._tag).toBe("InvalidToken")
      expect((yield* failureOf(fresh.account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf(anonymous.auth.refresh()))._tag).toBe("InvalidToken")
      const noCookie = yield* typedCaller({ address })
      expect((yield* failureOf(noCookie.auth.refresh()))._tag).toBe("InvalidToken")
    }))

  it.effect("logout, sessions and sign-out everywhere", () =>
    Effect.gen(function*() {
      const account = yield* signUpTyped
      const laptop = yield* signInTyped(account)
      const phone = yield* signInTyped(account)
      const listed = yield* account.client.account.listSessions({ urlParams: {} })
      expect(listed.total).toBe(3)
      expect(listed.items.filter((session) => session.current)).toHaveLength(1)

      yield* laptop.client.auth.logout()
      expect((yield* failureOf(laptop.client.account.me()))._tag).toBe("Unauthenticated")
      yield* account.client.account.deleteSession({ path: { id: phone.sessionId } })
      expect((yield* failureOf(phone.client.account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf(account.client.account.deleteSession({ path: { id: phone.sessionId } })))._tag)
        .toBe("SessionNotFound")

      const tablet = yield* signInTyped(account)
      expect(yield* account.client.auth.revokeSessions({ urlParams: { keepCurrent: true } })).toEqual({ revoked: 1 })
      expect((yield* failureOf(tablet.client.account.me()))._tag).toBe("Unauthenticated")
      expect(yield* account.client.auth.revokeSessions({ urlParams: {} })).toEqual({ revoked: 1 })
      expect((yield* failureOf(account.client.account.me()))._tag).toBe("Unauthenticated")
    }))

  it.effect("ending other sessions needs a recent authentication; re-authenticating gives one", () =>
    Effect.gen(function*() {
      const account = yield* signUpTyped
      const other = yield* signInTyped(account)
      const { sessionId } = yield* account.client.account.me()
      // Ten minutes and more pass since this session signed in.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE sessions SET authenticated_at = authenticated_at - interval '11 minutes' WHERE id = ${sessionId}`

      const refused = yield* failureOf(account.client.auth.revokeSessions({ urlParams: { keepCurrent: true } }))
      expect(refused).toMatchObject({ _tag: "ReauthenticationRequired", maxAgeSeconds: 600 })
      expect((yield* failureOf(account.client.account.deleteSession({ path: { id: other.sessionId } })))._tag)
        .toBe("ReauthenticationRequired")
      expect((yield* other.client.account.me()).sessionId).toBe(other.sessionId)

      const wrong = yield* failureOf(
        account.client.account.reauthenticate({ payload: { password: secret("not the password at all") } })
      )
      expect(wrong._tag).toBe("InvalidCredentials")
      const confirmed = yield* account.client.account.reauthenticate({ payload: { password: secret(PASSWORD) } })
      const window = confirmed.recentUntil.epochMillis - confirmed.authenticatedAt.epochMillis
      expect(window).toBe(600_000)
      yield* account.client.account.deleteSession({ path: { id: other.sessionId } })
      expect((yield* failureOf(other.client.account.me()))._tag).toBe("Unauthenticated")
      // Signing out everywhere, this session included, needs nothing more.
      yield* sql`UPDATE sessions SET authenticated_at = authenticated_at - interval '11 minutes' WHERE id = ${sessionId}`
      expect(yield* account.client.auth.revokeSessions({ urlParams: {} })).toEqual({ revoked: 1 })
    }))

  it.effect("password recovery: links work once and expire; a reset ends every session", () =>
    Effect.gen(function*() {
      const account = yield* signUpTyped
      yield* account.anonymous.auth.forgotPassword({ payload: { email: account.email } })
      yield* account.anonymous.auth.forgotPassword({ payload: { email: freshEmail("nobody") } })
      yield* Effect.sleep("100 millis")
      const token = secret(yield* mailedToken(account.email, "password-reset"))
      const weak = yield* failureOf(
        account.anonymous.auth.resetPassword({ payload: { token, password: secret("password1234") } })
      )
      expect(weak._tag).toBe("WeakPassword")
      yield* account.anonymous.auth.resetPassword({ payload: { token, password: secret(NEW_PASSWORD) } })
      expect((yield* failureOf(account.client.account.me()))._tag).toBe("Unauthenticated")
      const reused = yield* failureOf(
        account.anonymous.auth.resetPassword({ payload: { token, password: secret("yet another passphrase") } })
      )
      expect(reused._tag).toBe("InvalidToken")
      yield* signInTyped(account, NEW_PASSWORD)

      // A link past its 30 minutes is refused as expired.
      yield* account.anonymous.auth.forgotPassword({ payload: { email: account.email } })
      yield* Effect.sleep("100 millis")
      const late = secret(yield* mailedToken(account.email, "password-reset"))
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE one_time_tokens SET expires_at = now() - interval '1 minute'
                 WHERE purpose = 'password-reset' AND used_at IS NULL`
      const expired = yield* failureOf(
        account.anonymous.auth.resetPassword({ payload: { token: late, password: secret("yet another passphrase") } })
      )
      expect(expired._tag).toBe("TokenExpired")
    }))

  it.effect("changing the password needs the current one, ends other sessions and spends reset links", () =>
    Effect.gen(function*() {
      const account = yield* signUpTyped
      const other = yield* signInTyped(account)
      yield* account.anonymous.auth.forgotPassword({ payload: { email: account.email } })
      yield* Effect.sleep("100 millis")
      const pendingReset = secret(yield* mailedToken(account.email, "password-reset"))
      const change = (currentPassword: string, newPassword: string) =>
        account.client.account.changePassword({
          payload: { currentPassword: secret(currentPassword), newPassword: secret(newPassword) }
        })

      expect((yield* failureOf(change("not the password at all", NEW_PASSWORD)))._tag).toBe("InvalidCredentials")
      expect((yield* failureOf(change(PASSWORD, account.email + "-x")))._tag).toBe("WeakPassword")
      expect(yield* change(PASSWORD, NEW_PASSWORD)).toEqual({ sessionsEnded: 1 })
      expect((yield* failureOf(other.client.account.me()))._tag).toBe("Unauthenticated")
      expect((yield* account.client.account.me()).user.email).toBe(account.email)
      const oldPassword = yield* failureOf(
        account.anonymous.auth.login({ payload: { email: account.email, password: secret(PASSWORD) } })
      )
      expect(oldPassword._tag).toBe("InvalidCredentials")
      yield* signInTyped(account, NEW_PASSWORD)
      const reset = yield* failureOf(
        account.anonymous.auth.resetPassword({ payload: { token: pendingReset, password: secret(PASSWORD) } })
      )
      expect(reset._tag).toBe("InvalidToken")
    }))

  it.effect("MFA: enrol, verify, the login challenge, replayed and recovery codes, reset, change, disable", () =>
    Effect.gen(function*() {
      const account = yield* signUpTyped
      const { client } = account
      expect((yield* failureOf(client.mfa.enroll({ payload: { password: secret("wrong password here") } })))._tag)
        .toBe("InvalidCredentials")
      const enrolment = yield* client.mfa.enroll({ payload: { password: secret(PASSWORD) } })
      expect(Redacted.value(enrolment.otpauthUri)).toMatch(/^otpauth:\/\/totp\/Parley:/)
      const t0 = yield* settledNow
      expect((yield* failureOf(client.mfa.verify({ payload: { code: secret("000000") } })))._tag)
        .toBe("InvalidMfaCode")
      const enabled = yield* client.mfa.verify({ payload: { code: yield* codeAt(enrolment.secret, t0) } })
      expect(enabled.recoveryCodes).toHaveLength(10)
      const recovery = enabled.recoveryCodes.map(Redacted.value)

      const login = (password = PASSWORD) =>
        account.anonymous.auth.login({ payload: { email: account.email, password: secret(password) } }).pipe(
          Effect.flatMap((result) =>
            result._tag === "MfaRequired" ? Effect.succeed(result) : Effect.dieMessage("expected MfaRequired")
          )
        )
      const challenge = (challengeToken: Redacted.Redacted<string>, code: string | Redacted.Redacted<string>) =>
        account.anonymous.mfa.challenge({
          payload: { challengeToken, code: Redacted.isRedacted(code) ? code : secret(code) }
        })

      // The login challenge: a wrong code keeps it open, a right one signs in.
      const first = yield* login()
      expect(first).toMatchObject({ mfaRequired: true, expiresIn: 300 })
      expect((yield* failureOf(challenge(first.challengeToken, "000000")))._tag).toBe("InvalidMfaCode")
      const nextCode = yield* codeAt(enrolment.secret, t0, 1)
      expect((yield* challenge(first.challengeToken, nextCode))._tag).toBe("SignedIn")
      expect((yield* failureOf(challenge(first.challengeToken, nextCode)))._tag).toBe("InvalidToken")
      // The same code again, in a new login, is a replay.
      const second = yield* login()
      expect((yield* failureOf(challenge(second.challengeToken, nextCode)))._tag).toBe("InvalidMfaCode")
      // A recovery code works once.
      expect((yield* challenge(second.challengeToken, recovery[0]!))._tag).toBe("SignedIn")
      const third = yield* login()
      expect((yield* failureOf(challenge(third.challengeToken, recovery[0]!)))._tag).toBe("InvalidMfaCode")

      // A password reset does not turn MFA off.
      yield* account.anonymous.auth.forgotPassword({ payload: { email: account.email } })
      yield* Effect.sleep("100 millis")
      const token = secret(yield* mailedToken(account.email, "password-reset"))
      yield* account.anonymous.auth.resetPassword({ payload: { token, password: secret(NEW_PASSWORD) } })
      const afterReset = yield* login(NEW_PASSWORD)
      const signedIn = yield* challenge(afterReset.challengeToken, recovery[1]!)
      if (signedIn._tag !== "SignedIn") return yield* Effect.dieMessage("expected SignedIn")
      const session = yield* typedCaller({ address: account.address, token: signedIn.accessToken })

      // With MFA on, changing the password and re-authenticating need a code too.
      const changeWithout = yield* failureOf(session.account.changePassword({
        payload: { currentPassword: secret(NEW_PASSWORD), newPassword: secret(PASSWORD) }
      }))
      expect(changeWithout._tag).toBe("InvalidMfaCode")
      expect(
        yield* session.account.changePassword({
          payload: { currentPassword: secret(NEW_PASSWORD), newPassword: secret(PASSWORD), code: secret(recovery[2]!) }
        })
      ).toEqual({ sessionsEnded: 0 })
      expect((yield* failureOf(session.account.reauthenticate({ payload: { password: secret(PASSWORD) } })))._tag)
        .toBe("InvalidMfaCode")
      yield* session.account.reauthenticate({ payload: { password: secret(PASSWORD), code: secret(recovery[3]!) } })

      // Turning MFA off needs the password and a code.
      const disable = (password: string, code: string) =>
        session.mfa.disable({ payload: { password: secret(password), code: secret(code) } })
      expect((yield* failureOf(disable(NEW_PASSWORD, recovery[4]!)))._tag).toBe("InvalidCredentials")
      expect((yield* failureOf(disable(PASSWORD, recovery[0]!)))._tag).toBe("InvalidMfaCode")
      yield* disable(PASSWORD, recovery[4]!)
      expect((yield* failureOf(disable(PASSWORD, recovery[5]!)))._tag).toBe("MfaNotEnabled")
      const plain = yield* account.anonymous.auth.login({
        payload: { email: account.email, password: secret(PASSWORD) }
      })
      expect(plain._tag).toBe("SignedIn")
    }))
})
