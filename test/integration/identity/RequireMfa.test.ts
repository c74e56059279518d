/**
 * With `PARLEY_REQUIRE_MFA` (the default in production), a signed-in user
 * without MFA may use only their own account's routes (enough to turn MFA
 * on); every workspace route answers `403 MfaEnrollmentRequired` until they
 * do, at once on the same token, and again if they turn it off.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { as, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"

const get = (url: string, token: string) => exchange(as(HttpClientRequest.get(url), { token }))

layer(testServer({ PARLEY_REQUIRE_MFA: "true" }), { excludeTestServices: true })("required MFA", (it) => {
  it.effect("a user without MFA may only manage their account until they turn it on", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      expect((yield* get("/v1/auth/me", account.token)).status).toBe(200)
      expect((yield* get("/v1/auth/sessions", account.token)).status).toBe(200)
      for (const url of ["/v1/workspaces/members", "/v1/agents", "/v1/audit"]) {
        const refused = yield* get(url, account.token)
        expect(refused.status, url).toBe(403)
        expect(refused.json._tag, url).toBe("MfaEnrollmentRequired")
      }
      const token = yield* post("/v1/api-tokens", { name: "ci", role: "viewer" }, { token: account.token })
      expect(token.json._tag).toBe("MfaEnrollmentRequired")

      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      const t0 = yield* settledNow
      const verified = yield* post("/v1/auth/mfa/verify", { code: yield* codeAt(enrol.json.secret, t0) }, {
        token: account.token
      })
      expect(verified.status, verified.text).toBe(200)
      expect((yield* get("/v1/workspaces/members", account.token)).status).toBe(200)
      expect((yield* get("/v1/agents", account.token)).status).toBe(200)
      const created = yield* post("/v1/api-tokens", { name: "ci", role: "viewer" }, { token: account.token })
      expect(created.status).toBe(201)
      // Automation tokens are not people: no second factor to ask of them.
      expect((yield* get("/v1/workspaces/members", created.json.token)).status).toBe(200)

      const disabled = yield* post("/v1/auth/mfa/disable", {
        password: PASSWORD,
        code: verified.json.recoveryCodes[0]
      }, { token: account.token })
      expect(disabled.status, disabled.text).toBe(204)
      expect((yield* get("/v1/workspaces/members", account.token)).json._tag).toBe("MfaEnrollmentRequired")
    }))
})
