/**
 * Controls around accounts beyond signing in: API tokens never keep more
 * access than the member who made them (lowered role, removal), and the
 * operator's commands (`parley users disable|enable`, `parley sessions
 * revoke`) act at once on a running node, from another process, and are
 * recorded in the audit log.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { type Context, Effect, Layer, Option } from "effect"
import { AccountAdminServices } from "../../../src/cli/Accounts.js"
import { DevOutbox } from "../../../src/providers/DevMailer.js"
import { AccountAdmin } from "../../../src/services/identity/AccountAdmin.js"
import { as, logIn, mailedToken, PASSWORD, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { runParley } from "../../support/ParleyProcess.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"

const get = (url: string, token: string) => exchange(as(HttpClientRequest.get(url), { token }))
const send = (method: "PATCH" | "DELETE", url: string, token: string, body?: unknown) =>
  exchange(as(
    body === undefined
      ? HttpClientRequest.make(method)(url)
      : HttpClientRequest.make(method)(url).pipe(HttpClientRequest.bodyUnsafeJson(body)),
    { token }
  ))

/** Invite an account into the owner's workspace with a role, and accept. */
const join = (owner: TestAccount, role: string) =>
  Effect.gen(function*() {
    const member = yield* signUp()
    yield* post("/v1/workspaces/invitations", { email: member.email, role }, { token: owner.token })
    const token = yield* mailedToken(member.email, "invitation")
    const accepted = yield* post("/v1/workspaces/invitations/accept", { token }, { token: member.token })
    expect(accepted.status).toBe(200)
    return member
  })

/** A member's API token in the owner's workspace. */
const tokenOf = (member: TestAccount, workspaceId: string, name: string, role: string) =>
  Effect.map(
    post("/v1/api-tokens", { name, role }, { token: member.token, workspaceId }),
    (created) => {
      expect(created.status, created.text).toBe(201)
      return created.json.token as string
    }
  )

layer(testServer(), { excludeTestServices: true })("account controls", (it) => {
  it.effect("a member's API tokens never keep more than the member: lowered role, then removal", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const member = yield* join(owner, "admin")
      const developerToken = yield* tokenOf(member, owner.workspaceId, "deploys", "developer")
      const viewerToken = yield* tokenOf(member, owner.workspaceId, "reports", "viewer")
      const ownersToken = yield* tokenOf(owner, owner.workspaceId, "owner-bot", "developer")
      expect((yield* get("/v1/workspaces/members", developerToken)).status).toBe(200)

      const lowered = yield* send("PATCH", `/v1/workspaces/members/${member.userId}`, owner.token, { role: "editor" })
      expect(lowered.status, lowered.text).toBe(200)
      expect((yield* get("/v1/workspaces/members", developerToken)).status).toBe(401)
      expect((yield* get("/v1/workspaces/members", viewerToken)).status).toBe(200)

      const removed = yield* send("DELETE", `/v1/workspaces/members/${member.userId}`, owner.token)
      expect(removed.status, removed.text).toBe(204)
      expect((yield* get("/v1/workspaces/members", viewerToken)).status).toBe(401)
      expect((yield* get("/v1/workspaces/members", ownersToken)).status).toBe(200)

      const audit = yield* get("/v1/audit?resourceType=api-token&action=api-token.revoked", owner.token)
      expect(audit.json.items.map((record: { summary: { after: { reason: string } } }) => record.summary.after.reason))
        .toEqual(["creator-removed", "creator-role-lowered"])
    }))

  it.effect("a disabled account cannot sign in, loses its sessions, links and tokens; enabled, it signs in again", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const other = yield* logIn(account)
      const apiToken = yield* tokenOf(account, account.workspaceId, "ci", "viewer")
      yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })
      yield* Effect.sleep("100 millis")
      const resetLink = yield* mailedToken(account.email, "password-reset")

      const admin = yield* AccountAdmin
      expect(yield* admin.disable(account.email)).toMatchObject({
        alreadyDisabled: false,
        sessionsEnded: 2,
        tokensRevoked: 1
      })
      for (const token of [account.token, other.json.accessToken as string, apiToken]) {
        expect((yield* get("/v1/auth/me", token)).status).toBe(401)
      }
      const login = (password: string) =>
        post("/v1/auth/login", { email: account.email, password }, { address: account.address })
      expect((yield* login(PASSWORD)).json._tag).toBe("AccountDisabled")
      expect((yield* login("not the password at all")).json._tag).toBe("InvalidCredentials")
      expect(
        (yield* post("/v1/auth/reset-password", { token: resetLink, password: "a new passphrase here" })).json._tag
      )
        .toBe("InvalidToken")
      const outbox = yield* DevOutbox
      const before = (yield* outbox.messages).length
      expect((yield* post("/v1/auth/forgot-password", { email: account.email }, { address: account.address })).status)
        .toBe(202)
      yield* Effect.sleep("100 millis")
      expect((yield* outbox.messages).length).toBe(before)

      const notice = yield* outbox.latest(account.email, "security-notice")
      expect(Option.getOrThrow(notice).subject).toBe("Your Parley account was disabled")
      expect(yield* admin.enable(account.email)).toMatchObject({ wasDisabled: true })
      const again = yield* login(PASSWORD)
      expect(again.json._tag).toBe("SignedIn")
      expect((yield* get("/v1/auth/me", apiToken)).status).toBe(401)

      const audit = yield* get("/v1/audit?action=account.*", again.json.accessToken)
      expect(audit.json.items.map((record: { action: string; actor: { kind: string } }) => [
        record.action,
        record.actor.kind
      ])).toEqual([["account.enabled", "system"], ["account.disabled", "system"]])
      expect(yield* Effect.flip(admin.disable("nobody@example.com"))).toMatchObject({ _tag: "AccountNotFound" })
    }).pipe(Effect.provide(AccountAdminServices)))

  it.effect("the operator resets the MFA of a user who lost every second factor; the user is told", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const enrol = yield* post("/v1/auth/mfa/enroll", { password: PASSWORD }, { token: account.token })
      const verified = yield* post(
        "/v1/auth/mfa/verify",
        { code: yield* codeAt(enrol.json.secret, yield* settledNow) },
        {
          token: account.token
        }
      )
      expect(verified.status, verified.text).toBe(200)
      const login = () =>
        post("/v1/auth/login", { email: account.email, password: PASSWORD }, { address: account.address })
      expect((yield* login()).json._tag).toBe("MfaRequired")

      const admin = yield* AccountAdmin
      expect(yield* admin.resetMfa(account.email)).toMatchObject({ wasEnabled: true, sessionsEnded: 1 })
      expect((yield* get("/v1/auth/me", account.token)).status).toBe(401)
      const again = yield* login()
      expect(again.json._tag).toBe("SignedIn")
      expect(again.json.user.mfaEnabled).toBe(false)
      const notice = yield* Effect.flatMap(DevOutbox, (outbox) => outbox.latest(account.email, "security-notice"))
      expect(Option.getOrThrow(notice).subject).toBe("Two-factor authentication was reset on your Parley account")
      expect(yield* admin.resetMfa(account.email)).toMatchObject({ wasEnabled: false })
    }).pipe(Effect.provide(AccountAdminServices)))
})

describe("the operator's commands", () => {
  it.scopedLive(
    "end sessions and disable accounts on a running node, from another process",
    () =>
      Effect.gen(function*() {
        const { url } = yield* freshDatabase
        const node = yield* Layer.build(testServer({ DATABASE_URL: url }))
        const onNode = <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, node as Context.Context<R>)
        const parley = (...args: Array<string>) =>
          Effect.promise(() => runParley(args, { DATABASE_URL: url, PARLEY_LOG_LEVEL: "Warning" }))

        const ada = yield* onNode(signUp())
        const bob = yield* onNode(signUp())
        // The node has both sessions cached once it served them.
        expect((yield* onNode(get("/v1/auth/me", ada.token))).status).toBe(200)
        expect((yield* onNode(get("/v1/auth/me", bob.token))).status).toBe(200)

        const revoked = yield* parley("sessions", "revoke", ada.email)
        expect(revoked.code, revoked.output).toBe(0)
        expect(JSON.parse(revoked.output)).toEqual({ revoked: 1 })
        expect((yield* onNode(get("/v1/auth/me", ada.token))).status).toBe(401)
        expect((yield* onNode(get("/v1/auth/me", bob.token))).status).toBe(200)

        const disabled = yield* parley("users", "disable", bob.email)
        expect(disabled.code, disabled.output).toBe(0)
        expect(JSON.parse(disabled.output)).toMatchObject({ sessionsEnded: 1, tokensRevoked: 0 })
        expect((yield* onNode(get("/v1/auth/me", bob.token))).status).toBe(401)
        const refused = yield* onNode(post("/v1/auth/login", { email: bob.email, password: PASSWORD }))
        expect(refused.json._tag).toBe("AccountDisabled")

        const adaAgain = yield* onNode(logIn(ada))
        const everyone = yield* parley("sessions", "revoke", "--all")
        expect(everyone.code, everyone.output).toBe(0)
        expect((yield* onNode(get("/v1/auth/me", adaAgain.json.accessToken))).status).toBe(401)

        const unknown = yield* parley("users", "disable", "nobody@example.com")
        expect(unknown.code).toBe(1)
        expect(unknown.output).toContain("parley: No account has the address nobody@example.com")
        const ambiguous = yield* parley("sessions", "revoke")
        expect(ambiguous.code).toBe(1)
        expect(ambiguous.output).toContain("Give either an email address or --all")
      }),
    120_000
  )
})
