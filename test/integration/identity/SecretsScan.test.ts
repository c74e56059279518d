/**
 * Secrets stay secret: after a full run (sign-up, login, refresh, MFA
 * enrolment and a challenge, an API token), no password, TOTP seed, refresh
 * token or API token appears in plain text in any table, any log line, or any
 * response but the one that issued it.
 */
import { Cookies, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { as, freshAddress, freshEmail, mailedToken, PASSWORD, post } from "../../support/Accounts.js"
import { type Exchange, exchange } from "../../support/Http.js"
import { capturingLogger, type LogEntry, TEST_PASSWORD_HASH, testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"

const logs: Array<LogEntry> = []

layer(testServer({}, capturingLogger(logs)), { excludeTestServices: true })("secrets", (it) => {
  it.effect("appear only in the response that issued them, never in a table or a log line", () =>
    Effect.gen(function*() {
      const responses: Array<{ readonly name: string; readonly exchange: Exchange }> = []
      const record = (name: string) => (res: Exchange) =>
        Effect.sync(() => (responses.push({ name, exchange: res }), res))
      const email = freshEmail("secret")
      const address = freshAddress()
      const signup = yield* post("/v1/auth/signup", { email, password: PASSWORD }, { address }).pipe(
        Effect.tap(record("signup"))
      )
      const refreshToken = Option.getOrThrow(Cookies.get(signup.cookies, "__Secure-parley_refresh")).value
      const refreshed = yield* exchange(
        as(
          HttpClientRequest.post("/v1/auth/refresh").pipe(
            HttpClientRequest.setHeader("cookie", `__Secure-parley_refresh=${refreshToken}`)
          ),
          { address }
        )
      ).pipe(Effect.tap(record("refresh")))
      const refreshToken2 = Option.getOrThrow(Cookies.get(refreshed.cookies, "__Secure-parley_refresh")).value
      const bearer = refreshed.json.accessToken as string
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: bearer }).pipe(
        Effect.tap(record("enroll"))
      )
      const totpSecret = enrol.json.secret as string
      const code = yield* codeAt(totpSecret, yield* settledNow)
      const verified = yield* post("/v1/auth/mfa/verify", { code }, { token: bearer }).pipe(
        Effect.tap(record("verify"))
      )
      const recoveryCodes = verified.json.recoveryCodes as Array<string>
      const login = yield* post("/v1/auth/login", { email, password: PASSWORD }, { address }).pipe(
        Effect.tap(record("login"))
      )
      const challenged = yield* post("/v1/auth/mfa/challenge", {
        challengeToken: login.json.challengeToken,
        code: recoveryCodes[0]
      }, { address }).pipe(Effect.tap(record("challenge")))
      const challengeRefresh = Option.getOrThrow(Cookies.get(challenged.cookies, "__Secure-parley_refresh")).value
      // API tokens need a verified address: follow the mailed link.
      yield* post("/v1/auth/verify-email", { token: yield* mailedToken(email, "email-verification") }).pipe(
        Effect.tap(record("verify-email"))
      )
      const apiToken = yield* post("/v1/api-tokens", { name: "scan", role: "viewer" }, {
        token: challenged.json.accessToken
      })
        .pipe(Effect.tap(record("api-token")))
      expect(apiToken.status).toBe(201)
      const patToken = apiToken.json.token as string
      const listed = yield* exchange(as(HttpClientRequest.get("/v1/workspaces/members"), { token: patToken })).pipe(
        Effect.tap(record("members-by-token"))
      )
      expect(listed.status).toBe(200)
      yield* exchange(as(HttpClientRequest.get("/v1/api-tokens"), { token: challenged.json.accessToken })).pipe(
        Effect.tap(record("list-tokens"))
      )
      yield* exchange(as(HttpClientRequest.get("/v1/auth/me"), { token: challenged.json.accessToken })).pipe(
        Effect.tap(record("me"))
      )
      yield* exchange(as(HttpClientRequest.get("/v1/audit"), { token: challenged.json.accessToken })).pipe(
        Effect.tap(record("audit"))
      )

      const secrets: Record<string, { readonly value: string; readonly issuedBy: ReadonlyArray<string> }> = {
        password: { value: PASSWORD, issuedBy: [] },
        totpSecret: { value: totpSecret, issuedBy: ["enroll"] },
        refreshToken: { value: refreshToken, issuedBy: ["signup"] },
        refreshToken2: { value: refreshToken2, issuedBy: ["refresh"] },
        challengeRefresh: { value: challengeRefresh, issuedBy: ["challenge"] },
        apiToken: { value: patToken, issuedBy: ["api-token"] },
        recoveryCode: { value: recoveryCodes[1]!, issuedBy: ["verify"] }
      }

      // Every table, every row, as text.
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ tableName: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
      const dump: Array<string> = []
      for (const { tableName } of tables) {
        const rows = yield* sql.unsafe<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${tableName}" t`)
        dump.push(...rows.map((row) => `${tableName}: ${row.row}`))
      }
      const logText = JSON.stringify(logs)
      const leaks: Array<string> = []
      for (const [name, secret] of Object.entries(secrets)) {
        for (const line of dump) {
          if (line.includes(secret.value)) leaks.push(`${name} in table row ${line.slice(0, 80)}`)
        }
        if (logText.includes(secret.value)) leaks.push(`${name} in a log line`)
        for (const response of responses) {
          const whole = `${response.exchange.text} ${JSON.stringify(response.exchange.headers)}`
          if (whole.includes(secret.value) && !secret.issuedBy.includes(response.name)) {
            leaks.push(`${name} in the ${response.name} response`)
          }
        }
      }
      expect(leaks).toEqual([])
      // The search does find a secret where it is meant to be: in the response that issued it.
      for (const [name, secret] of Object.entries(secrets)) {
        for (const issuer of secret.issuedBy) {
          const response = responses.find((response) => response.name === issuer)!
          expect(`${response.exchange.text} ${JSON.stringify(response.exchange.headers)}`, name).toContain(secret.value)
        }
      }
      expect(dump.length).toBeGreaterThan(10)
      // The password is stored, but only as a scrypt hash (at the test servers' parameters).
      const { ln, p, r } = TEST_PASSWORD_HASH
      expect(dump.some((line) => line.startsWith("users:") && line.includes(`$scrypt$ln=${ln},r=${r},p=${p}$`))).toBe(
        true
      )
    }))
})
