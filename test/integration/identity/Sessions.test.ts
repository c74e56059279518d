/**
 * Sign-up, sign-in and sessions end to end over HTTP: cookies and their
 * attributes, refresh-token rotation and reuse detection, logout and
 * sign-out everywhere (tokens stop at once), and the cookie CSRF rule.
 * Behaviour goes through the typed client (a cookie jar acting as the
 * browser where the refresh cookie is the credential); raw requests stay for
 * the wire checks (Set-Cookie attributes, the CSRF header rule, a body the
 * contract refuses).
 */
import { Cookies, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option, Ref, Schema } from "effect"
import { REFRESH_COOKIE } from "../../../src/domain/identity/Session.js"
import { SignupRequest } from "../../../src/domain/identity/Signup.js"
import { as, freshAddress, freshEmail, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientWith, loginPayload, signInTyped } from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

const signupPayload = (email: string, password: string) => Schema.decodeUnknownSync(SignupRequest)({ email, password })

/** A request carrying cookies, as a browser sends them. */
const withCookies = (request: HttpClientRequest.HttpClientRequest, cookies: Record<string, string>) =>
  HttpClientRequest.setHeader(
    request,
    "cookie",
    Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join("; ")
  )

const cookieValue = (cookies: Cookies.Cookies, name: string) => Option.getOrThrow(Cookies.get(cookies, name)).value

layer(testServer(), { excludeTestServices: true })("sessions", (it) => {
  it.effect("signup answers the user and tokens and sets both cookies with their attributes", () =>
    Effect.gen(function*() {
      // Raw: the Set-Cookie attributes and the body's text are wire checks.
      const email = freshEmail("ada")
      const res = yield* post("/v1/auth/signup", { email, password: PASSWORD, displayName: "Ada" }, {
        address: freshAddress()
      })
      expect(res.status).toBe(201)
      expect(res.json).toMatchObject({
        _tag: "SignedIn",
        mfaRequired: false,
        tokenType: "Bearer",
        expiresIn: 900,
        user: { email, displayName: "Ada", emailVerified: false, mfaEnabled: false }
      })
      expect(res.json.user).not.toHaveProperty("passwordHash")
      const access = Option.getOrThrow(Cookies.get(res.cookies, "__Host-parley_access"))
      expect(access.options).toMatchObject({ httpOnly: true, secure: true, sameSite: "lax", path: "/" })
      const refresh = Option.getOrThrow(Cookies.get(res.cookies, "__Secure-parley_refresh"))
      expect(refresh.options).toMatchObject({ httpOnly: true, secure: true, sameSite: "strict", path: "/v1/auth" })
      // ASVS 3.3.4: the cookie's token is only ever in Set-Cookie; the body's is a different one.
      expect(access.value).not.toBe(res.json.accessToken)
      expect(res.text).not.toContain(access.value)
      expect(res.text).not.toContain(refresh.value)
    }))

  it.effect("the same address cannot sign up twice, and weak passwords are refused without being echoed", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const signup = (email: string, password: string, address = freshAddress()) =>
        Effect.flatMap(
          typedCaller({ address }),
          (anonymous) => failureOf(anonymous.auth.signup({ payload: signupPayload(email, password) }))
        )
      const again = yield* signup(account.email, PASSWORD, account.address)
      expect(again._tag).toBe("EmailTaken")
      const common = yield* signup(freshEmail(), "password1234")
      expect(common).toMatchObject({ _tag: "WeakPassword", reason: "common" })
      const email = freshEmail("grace")
      const containsEmail = yield* signup(email, `${email.split("@")[0]}-is-me`)
      expect(containsEmail).toMatchObject({ _tag: "WeakPassword", reason: "contains-email" })
      // Raw: a password too short for the contract's schema, and its absence from the answer's text.
      const short = yield* post("/v1/auth/signup", { email: freshEmail(), password: "short-one" }, {
        address: freshAddress()
      })
      expect(short.status).toBe(400)
      expect(short.text).not.toContain("short-one")
    }))

  it.effect("a wrong password and an unknown email get the same answer", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const anonymous = yield* typedCaller({ address: account.address })
      const wrong = yield* failureOf(
        anonymous.auth.login({ payload: loginPayload(account.email, "not the password at all") })
      )
      const unknown = yield* failureOf(
        anonymous.auth.login({ payload: loginPayload(freshEmail("nobody"), "not the password at all") })
      )
      expect(wrong).toEqual(unknown)
      expect(wrong._tag).toBe("InvalidCredentials")
    }))

  it.effect("a bearer token and the access cookie both authenticate; a cookie write needs X-Requested-With", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const cookie = cookieValue(account.signup.cookies, "__Host-parley_access")
      const bearer = yield* (yield* clientOf(account)).account.me()
      expect(bearer.user.email).toBe(account.email)
      // Raw: the access cookie sent by hand, with and without the X-Requested-With header (the CSRF rule).
      const viaCookie = yield* exchange(
        withCookies(HttpClientRequest.get("/v1/auth/me"), { "__Host-parley_access": cookie })
      )
      expect(viaCookie.status).toBe(200)
      const body = { name: "Second", slug: `second-${Date.now()}` }
      const forged = yield* exchange(
        withCookies(HttpClientRequest.post("/v1/workspaces").pipe(HttpClientRequest.bodyUnsafeJson(body)), {
          "__Host-parley_access": cookie
        })
      )
      expect(forged.status).toBe(403)
      expect(forged.json.message).toContain("X-Requested-With")
      const sameSite = yield* exchange(
        withCookies(
          HttpClientRequest.post("/v1/workspaces").pipe(
            HttpClientRequest.bodyUnsafeJson(body),
            HttpClientRequest.setHeader("x-requested-with", "fetch")
          ),
          { "__Host-parley_access": cookie }
        )
      )
      expect(sameSite.status).toBe(201)
    }))

  it.effect("refresh rotates the refresh token; presenting a used one ends the whole session", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const first = cookieValue(account.signup.cookies, REFRESH_COOKIE)
      /** A browser (the typed client with a cookie jar) holding one refresh token. */
      const holding = (token: string) =>
        Effect.gen(function*() {
          const jar = yield* Ref.make(Cookies.unsafeSet(Cookies.empty, REFRESH_COOKIE, token))
          return { jar, client: yield* typedCaller({ address: account.address, jar }) }
        })
      const browser = yield* holding(first)
      const refreshed = yield* browser.client.auth.refresh()
      const second = cookieValue(yield* Ref.get(browser.jar), REFRESH_COOKIE)
      expect(second).not.toBe(first)
      const newToken = yield* clientWith(refreshed.accessToken, account.address)
      expect((yield* newToken.account.me()).user.id).toBe(account.userId)
      // The first token again: someone holds a copy. The session ends, for every token of it.
      const replay = yield* failureOf((yield* holding(first)).client.auth.refresh())
      expect(replay).toMatchObject({ _tag: "InvalidToken", purpose: "refresh" })
      expect((yield* failureOf(newToken.account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf((yield* clientOf(account)).account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf((yield* holding(second)).client.auth.refresh()))._tag).toBe("InvalidToken")
      const missing = yield* failureOf((yield* typedCaller({ address: account.address })).auth.refresh())
      expect(missing).toMatchObject({ _tag: "InvalidToken", purpose: "refresh" })
    }))

  it.effect("logout stops the session's tokens at once and clears the cookies; other sessions live on", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const other = yield* signInTyped(account)
      // Raw: the answer's Set-Cookie that clears the access cookie is a wire check.
      const out = yield* exchange(as(HttpClientRequest.post("/v1/auth/logout"), { token: account.token }))
      expect(out.status).toBe(204)
      const cleared = Option.getOrThrow(Cookies.get(out.cookies, "__Host-parley_access"))
      expect(cleared.value).toBe("")
      expect((yield* failureOf((yield* clientOf(account)).account.me()))._tag).toBe("Unauthenticated")
      expect((yield* other.client.account.me()).user.id).toBe(account.userId)
    }))

  it.effect("a user lists their sessions and ends one; another user's session is not found", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const client = yield* clientOf(account)
      const second = yield* signInTyped(account)
      const list = yield* client.account.listSessions({ urlParams: {} })
      expect(list.total).toBe(2)
      const current = list.items.find((session) => session.current)
      const otherSession = list.items.find((session) => !session.current)!
      expect(current).toMatchObject({ ipAddress: account.address })
      const stranger = yield* clientOf(yield* signUp())
      const path = { id: otherSession.id }
      const foreign = yield* failureOf(stranger.account.deleteSession({ path }))
      expect(foreign._tag).toBe("SessionNotFound")
      yield* client.account.deleteSession({ path })
      expect((yield* failureOf(second.client.account.me()))._tag).toBe("Unauthenticated")
    }))

  it.effect("revoke-sessions signs the user out everywhere (or everywhere else)", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const a = (yield* signInTyped(account)).client
      const b = (yield* signInTyped(account)).client
      const keep = yield* a.auth.revokeSessions({ urlParams: { keepCurrent: true } })
      expect(keep).toEqual({ revoked: 2 })
      expect((yield* a.account.me()).user.id).toBe(account.userId)
      expect((yield* failureOf(b.account.me()))._tag).toBe("Unauthenticated")
      expect((yield* failureOf((yield* clientOf(account)).account.me()))._tag).toBe("Unauthenticated")
      const all = yield* a.auth.revokeSessions({ urlParams: {} })
      expect(all).toEqual({ revoked: 1 })
      expect((yield* failureOf(a.account.me()))._tag).toBe("Unauthenticated")
    }))

  it.effect("an account keeps at most 50 live sessions: a sign-in past that ends the least recently used", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      // 49 more sessions, used long ago (made directly: 49 sign-ins would only time scrypt).
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO sessions (id, user_id, user_agent, ip_address, created_at, authenticated_at, last_used_at, expires_at)
        SELECT gen_random_uuid(), ${account.userId}, 'old device', NULL, now() - interval '2 days',
               now() - interval '2 days', now() - interval '1 day' - n * interval '1 minute', now() + interval '20 days'
        FROM generate_series(1, 49) AS n`
      const live = sql<{ n: number }>`
        SELECT count(*)::int AS n FROM sessions WHERE user_id = ${account.userId} AND revoked_at IS NULL`
      expect((yield* live)[0]!.n).toBe(50)
      const newest = yield* signInTyped(account)
      expect((yield* live)[0]!.n).toBe(50)
      const ended = yield* sql<{ reason: string; lastUsedAt: Date }>`
        SELECT revoked_reason AS reason, last_used_at FROM sessions
        WHERE user_id = ${account.userId} AND revoked_at IS NOT NULL`
      expect(ended).toHaveLength(1)
      expect(ended[0]!.reason).toBe("session-limit")
      expect(ended[0]!.lastUsedAt.getTime()).toBeLessThan(Date.now() - 86_400_000 - 48 * 60_000)
      expect((yield* (yield* clientOf(account)).account.me()).user.id).toBe(account.userId)
      expect((yield* newest.client.account.me()).user.id).toBe(account.userId)
    }))
})
