/**
 * Controls around accounts beyond signing in: API tokens never keep more
 * access than the member who made them (lowered role, removal), and the
 * operator's commands (`parley users disable|enable`, `parley sessions
 * revoke`) act at once on a running node, from another process, and are
 * recorded in the audit log. Every call goes through the typed client.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { type Context, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { AccountAdminServices } from "../../../src/cli/Accounts.js"
import { UserId } from "../../../src/domain/identity/Ids.js"
import { InvitationAccept, InvitationCreate } from "../../../src/domain/identity/Invitation.js"
import { MemberRoleChange } from "../../../src/domain/identity/Membership.js"
import { ForgotPasswordRequest } from "../../../src/domain/identity/PasswordReset.js"
import { DevOutbox } from "../../../src/providers/DevMailer.js"
import { AccountAdmin } from "../../../src/services/identity/AccountAdmin.js"
import { mailedToken, PASSWORD, signUp, type TestAccount } from "../../support/Accounts.js"
import {
  auditQuery,
  clientWith,
  enableMfa,
  logInTyped,
  resetPayload,
  signInTyped,
  tokenPayload
} from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { runParley } from "../../support/ParleyProcess.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

type Token = string | Redacted.Redacted<string>

/** Invite an account into the owner's workspace with a role, and accept. */
const join = (owner: TestAccount, role: string) =>
  Effect.gen(function*() {
    const member = yield* signUp()
    yield* (yield* clientOf(owner)).invitations.create({
      payload: Schema.decodeUnknownSync(InvitationCreate)({ email: member.email, role })
    })
    const token = yield* mailedToken(member.email, "invitation")
    yield* (yield* clientOf(member)).invitations.accept({
      payload: Schema.decodeUnknownSync(InvitationAccept)({ token })
    })
    return member
  })

/** A member's API token in the owner's workspace. */
const tokenOf = (member: TestAccount, workspaceId: string, name: string, role: string) =>
  Effect.flatMap(
    clientOf(member, workspaceId),
    (client) => client.apiTokens.create({ payload: tokenPayload(name, role) })
  )
    .pipe(Effect.map((created) => created.token))

/** The workspace's members, read with a bare token (a user's access token or an API token). */
const membersWith = (token: Token, address: string) =>
  Effect.flatMap(clientWith(token, address), (client) => client.members.list({ urlParams: {} }))

/** The signed-in user of a bare token. */
const meWith = (token: Token, address: string) =>
  Effect.flatMap(clientWith(token, address), (client) => client.account.me())

const forgetting = (email: string) => ({ payload: Schema.decodeUnknownSync(ForgotPasswordRequest)({ email }) })

layer(testServer(), { excludeTestServices: true })("account controls", (it) => {
  it.effect("a member's API tokens never keep more than the member: lowered role, then removal", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const member = yield* join(owner, "admin")
      const developerToken = yield* tokenOf(member, owner.workspaceId, "deploys", "developer")
      const viewerToken = yield* tokenOf(member, owner.workspaceId, "reports", "viewer")
      const ownersToken = yield* tokenOf(owner, owner.workspaceId, "owner-bot", "developer")
      expect((yield* membersWith(developerToken, owner.address)).total).toBe(2)

      const client = yield* clientOf(owner)
      const path = { user_id: Schema.decodeUnknownSync(UserId)(member.userId) }
      const lowered = yield* client.members.changeRole({
        path,
        payload: Schema.decodeUnknownSync(MemberRoleChange)({ role: "editor" })
      })
      expect(lowered.role).toBe("editor")
      expect((yield* failureOf(membersWith(developerToken, owner.address)))._tag).toBe("Unauthenticated")
      expect((yield* membersWith(viewerToken, owner.address)).total).toBe(2)

      yield* client.members.remove({ path })
      expect((yield* failureOf(membersWith(viewerToken, owner.address)))._tag).toBe("Unauthenticated")
      expect((yield* membersWith(ownersToken, owner.address)).total).toBe(1)

      const audit = yield* client.audit.list({
        urlParams: auditQuery({ resourceType: "api-token", action: "api-token.revoked" })
      })
      expect(audit.items.map((record) => record.summary.after?.reason))
        .toEqual(["creator-removed", "creator-role-lowered"])
    }))

  it.effect("a disabled account cannot sign in, loses its sessions, links and tokens; enabled, it signs in again", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const anonymous = yield* typedCaller({ address: account.address })
      const other = yield* signInTyped(account)
      const apiToken = yield* tokenOf(account, account.workspaceId, "ci", "viewer")
      yield* anonymous.auth.forgotPassword(forgetting(account.email))
      yield* Effect.sleep("100 millis")
      const resetLink = yield* mailedToken(account.email, "password-reset")

      const admin = yield* AccountAdmin
      expect(yield* admin.disable(account.email)).toMatchObject({
        alreadyDisabled: false,
        sessionsEnded: 2,
        tokensRevoked: 1
      })
      for (const token of [account.token, other.signedIn.accessToken, apiToken]) {
        expect((yield* failureOf(meWith(token, account.address)))._tag).toBe("Unauthenticated")
      }
      expect((yield* failureOf(logInTyped(account, PASSWORD)))._tag).toBe("AccountDisabled")
      expect((yield* failureOf(logInTyped(account, "not the password at all")))._tag).toBe("InvalidCredentials")
      const reset = yield* failureOf(
        anonymous.auth.resetPassword({ payload: resetPayload(resetLink, "a new passphrase here") })
      )
      expect(reset._tag).toBe("InvalidToken")
      const outbox = yield* DevOutbox
      const before = (yield* outbox.messages).length
      yield* anonymous.auth.forgotPassword(forgetting(account.email))
      yield* Effect.sleep("100 millis")
      expect((yield* outbox.messages).length).toBe(before)

      const notice = yield* outbox.latest(account.email, "security-notice")
      expect(Option.getOrThrow(notice).subject).toBe("Your Parley account was disabled")
      expect(yield* admin.enable(account.email)).toMatchObject({ wasDisabled: true })
      const again = yield* signInTyped(account)
      expect(again.signedIn._tag).toBe("SignedIn")
      expect((yield* failureOf(meWith(apiToken, account.address)))._tag).toBe("Unauthenticated")

      const audit = yield* again.client.audit.list({ urlParams: auditQuery({ action: "account.*" }) })
      expect(audit.items.map((record) => [record.action, record.actor.kind]))
        .toEqual([["account.enabled", "system"], ["account.disabled", "system"]])
      expect(yield* Effect.flip(admin.disable("nobody@example.com"))).toMatchObject({ _tag: "AccountNotFound" })
    }).pipe(Effect.provide(AccountAdminServices)))

  it.effect("the operator resets the MFA of a user who lost every second factor; the user is told", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      yield* enableMfa(account)
      expect((yield* logInTyped(account))._tag).toBe("MfaRequired")

      const admin = yield* AccountAdmin
      expect(yield* admin.resetMfa(account.email)).toMatchObject({ wasEnabled: true, sessionsEnded: 1 })
      expect((yield* failureOf((yield* clientOf(account)).account.me()))._tag).toBe("Unauthenticated")
      const again = yield* logInTyped(account)
      expect(again).toMatchObject({ _tag: "SignedIn", user: { mfaEnabled: false } })
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
        const me = (account: TestAccount) => Effect.flatMap(clientOf(account), (client) => client.account.me())

        const ada = yield* onNode(signUp())
        const bob = yield* onNode(signUp())
        // The node has both sessions cached once it served them.
        expect((yield* onNode(me(ada))).user.id).toBe(ada.userId)
        expect((yield* onNode(me(bob))).user.id).toBe(bob.userId)

        const revoked = yield* parley("sessions", "revoke", ada.email)
        expect(revoked.code, revoked.output).toBe(0)
        expect(JSON.parse(revoked.output)).toEqual({ revoked: 1 })
        expect((yield* onNode(failureOf(me(ada))))._tag).toBe("Unauthenticated")
        expect((yield* onNode(me(bob))).user.id).toBe(bob.userId)

        const disabled = yield* parley("users", "disable", bob.email)
        expect(disabled.code, disabled.output).toBe(0)
        expect(JSON.parse(disabled.output)).toMatchObject({ sessionsEnded: 1, tokensRevoked: 0 })
        expect((yield* onNode(failureOf(me(bob))))._tag).toBe("Unauthenticated")
        const refused = yield* onNode(failureOf(logInTyped(bob)))
        expect(refused._tag).toBe("AccountDisabled")

        const adaAgain = yield* onNode(signInTyped(ada))
        const everyone = yield* parley("sessions", "revoke", "--all")
        expect(everyone.code, everyone.output).toBe(0)
        expect((yield* onNode(failureOf(adaAgain.client.account.me())))._tag).toBe("Unauthenticated")

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
