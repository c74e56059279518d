/**
 * Sign-up, sign-in and sessions end to end over HTTP: cookies and their
 * attributes, refresh-token rotation and reuse detection, logout and
 * sign-out everywhere (tokens stop at once), and the cookie CSRF rule.
 */
import { Cookies, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { as, freshAddress, freshEmail, logIn, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

const get = (url: string, caller: Parameters<typeof as>[1]) => exchange(as(HttpClientRequest.get(url), caller))

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
      const again = yield* post("/v1/auth/signup", { email: account.email, password: PASSWORD }, {
        address: account.address
      })
      expect(again.status).toBe(409)
      expect(again.json._tag).toBe("EmailTaken")
      const common = yield* post("/v1/auth/signup", { email: freshEmail(), password: "password1234" }, {
        address: freshAddress()
      })
      expect(common.status).toBe(400)
      expect(common.json).toMatchObject({ _tag: "WeakPassword", reason: "common" })
      const email = freshEmail("grace")
      const containsEmail = yield* post("/v1/auth/signup", { email, password: `${email.split("@")[0]}-is-me` }, {
        address: freshAddress()
      })
      expect(containsEmail.json).toMatchObject({ _tag: "WeakPassword", reason: "contains-email" })
      const short = yield* post("/v1/auth/signup", { email: freshEmail(), password: "short-one" }, {
        address: freshAddress()
      })
      expect(short.status).toBe(400)
      expect(short.text).not.toContain("short-one")
    }))

  it.effect("a wrong password and an unknown email get the same answer", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const wrong = yield* post("/v1/auth/login", { email: account.email, password: "not the password at all" }, {
        address: account.address
      })
      const unknown = yield* post("/v1/auth/login", {
        email: freshEmail("nobody"),
        password: "not the password at all"
      }, {
        address: account.address
      })
      expect(wrong.status).toBe(401)
      expect(unknown.status).toBe(401)
      expect(wrong.json).toEqual(unknown.json)
      expect(wrong.json._tag).toBe("InvalidCredentials")
    }))

  it.effect("a bearer token and the access cookie both authenticate; a cookie write needs X-Requested-With", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const cookie = cookieValue(account.signup.cookies, "__Host-parley_access")
      const bearer = yield* get("/v1/auth/me", { token: account.token })
      expect(bearer.json.user.email).toBe(account.email)
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
      const first = cookieValue(account.signup.cookies, "__Secure-parley_refresh")
      const refresh = (token: string) =>
        exchange(
          as(withCookies(HttpClientRequest.post("/v1/auth/refresh"), { "__Secure-parley_refresh": token }), {
            address: account.address
          })
        )
      const refreshed = yield* refresh(first)
      expect(refreshed.status).toBe(200)
      const second = cookieValue(refreshed.cookies, "__Secure-parley_refresh")
      expect(second).not.toBe(first)
      const newToken = refreshed.json.accessToken as string
      expect((yield* get("/v1/auth/me", { token: newToken })).status).toBe(200)
      // The first token again: someone holds a copy. The session ends, for every token of it.
      const replay = yield* refresh(first)
      expect(replay.status).toBe(400)
      expect(replay.json).toMatchObject({ _tag: "InvalidToken", purpose: "refresh" })
      expect((yield* get("/v1/auth/me", { token: newToken })).status).toBe(401)
      expect((yield* get("/v1/auth/me", { token: account.token })).status).toBe(401)
      expect((yield* refresh(second)).status).toBe(400)
      const missing = yield* exchange(as(HttpClientRequest.post("/v1/auth/refresh"), { address: account.address }))
      expect(missing.json).toMatchObject({ _tag: "InvalidToken", purpose: "refresh" })
    }))

  it.effect("logout stops the session's tokens at once and clears the cookies; other sessions live on", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const other = (yield* logIn(account)).json.accessToken as string
      const out = yield* exchange(as(HttpClientRequest.post("/v1/auth/logout"), { token: account.token }))
      expect(out.status).toBe(204)
      const cleared = Option.getOrThrow(Cookies.get(out.cookies, "__Host-parley_access"))
      expect(cleared.value).toBe("")
      expect((yield* get("/v1/auth/me", { token: account.token })).status).toBe(401)
      expect((yield* get("/v1/auth/me", { token: other })).status).toBe(200)
    }))

  it.effect("a user lists their sessions and ends one; another user's session is not found", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const second = yield* logIn(account)
      const list = yield* get("/v1/auth/sessions", { token: account.token })
      expect(list.json.total).toBe(2)
      const current = list.json.items.find((session: { current: boolean }) => session.current)
      const otherSession = list.json.items.find((session: { current: boolean }) => !session.current)
      expect(current).toMatchObject({ ipAddress: account.address })
      const stranger = yield* signUp()
      const foreign = yield* exchange(
        as(HttpClientRequest.del(`/v1/auth/sessions/${otherSession.id}`), { token: stranger.token })
      )
      expect(foreign.status).toBe(404)
      const ended = yield* exchange(
        as(HttpClientRequest.del(`/v1/auth/sessions/${otherSession.id}`), { token: account.token })
      )
      expect(ended.status).toBe(204)
      expect((yield* get("/v1/auth/me", { token: second.json.accessToken })).status).toBe(401)
    }))

  it.effect("revoke-sessions signs the user out everywhere (or everywhere else)", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const a = (yield* logIn(account)).json.accessToken as string
      const b = (yield* logIn(account)).json.accessToken as string
      const keep = yield* exchange(
        as(HttpClientRequest.post("/v1/auth/revoke-sessions?keepCurrent=true"), { token: a })
      )
      expect(keep.json).toEqual({ revoked: 2 })
      expect((yield* get("/v1/auth/me", { token: a })).status).toBe(200)
      expect((yield* get("/v1/auth/me", { token: b })).status).toBe(401)
      expect((yield* get("/v1/auth/me", { token: account.token })).status).toBe(401)
      const all = yield* exchange(as(HttpClientRequest.post("/v1/auth/revoke-sessions"), { token: a }))
      expect(all.json).toEqual({ revoked: 1 })
      expect((yield* get("/v1/auth/me", { token: a })).status).toBe(401)
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
      const newest = yield* logIn(account)
      expect((yield* live)[0]!.n).toBe(50)
      const ended = yield* sql<{ reason: string; lastUsedAt: Date }>`
        SELECT revoked_reason AS reason, last_used_at FROM sessions
        WHERE user_id = ${account.userId} AND revoked_at IS NOT NULL`
      expect(ended).toHaveLength(1)
      expect(ended[0]!.reason).toBe("session-limit")
      expect(ended[0]!.lastUsedAt.getTime()).toBeLessThan(Date.now() - 86_400_000 - 48 * 60_000)
      expect((yield* get("/v1/auth/me", { token: account.token })).status).toBe(200)
      expect((yield* get("/v1/auth/me", { token: newest.json.accessToken })).status).toBe(200)
    }))
})
