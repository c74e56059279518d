/**
 * With `PARLEY_REQUIRE_MFA` (the default in production), a signed-in user
 * without MFA may use only their own account's routes (enough to turn MFA
 * on); every workspace route answers `403 MfaEnrollmentRequired` until they
 * do, at once on the same token, and again if they turn it off. Every call
 * goes through the typed client.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { PASSWORD, signUp } from "../../support/Accounts.js"
import { clientWith, disablePayload, enableMfa, tokenPayload } from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

layer(testServer({ PARLEY_REQUIRE_MFA: "true" }), { excludeTestServices: true })("required MFA", (it) => {
  it.effect("a user without MFA may only manage their account until they turn it on", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const client = yield* clientOf(account)
      expect((yield* client.account.me()).user.id).toBe(account.userId)
      expect((yield* client.account.listSessions({ urlParams: {} })).total).toBe(1)
      const refusals = {
        "/v1/workspaces/members": yield* failureOf(client.members.list({ urlParams: {} })),
        "/v1/agents": yield* failureOf(client.assistants.list({ urlParams: {} })),
        "/v1/audit": yield* failureOf(client.audit.list({ urlParams: {} }))
      }
      for (const [url, refused] of Object.entries(refusals)) {
        expect(refused._tag, url).toBe("MfaEnrollmentRequired")
      }
      const token = yield* failureOf(client.apiTokens.create({ payload: tokenPayload("ci", "viewer") }))
      expect(token._tag).toBe("MfaEnrollmentRequired")

      const { recoveryCodes } = yield* enableMfa(account)
      expect((yield* client.members.list({ urlParams: {} })).total).toBe(1)
      expect((yield* client.assistants.list({ urlParams: {} })).total).toBe(0)
      const created = yield* client.apiTokens.create({ payload: tokenPayload("ci", "viewer") })
      expect(created.name).toBe("ci")
      // Automation tokens are not people: no second factor to ask of them.
      expect((yield* (yield* clientWith(created.token, account.address)).members.list({ urlParams: {} })).total)
        .toBe(1)

      yield* client.mfa.disable({ payload: disablePayload(PASSWORD, recoveryCodes[0]!) })
      expect((yield* failureOf(client.members.list({ urlParams: {} })))._tag).toBe("MfaEnrollmentRequired")
    }))
})
