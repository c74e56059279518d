/**
 * Every write of the workspace, sign-ins included, lands in its audit log:
 * who, what, on which resource, from where, with the trace id; admins read it
 * filtered and paged, and the chain of hashes holds. Behaviour goes through
 * the typed client (the trace ids read from its responses, `withResponse`);
 * one raw read stays for the log's text as sent.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { InvitationCreate } from "../../../src/domain/identity/Invitation.js"
import { AuditLog } from "../../../src/services/AuditLog.js"
import { as, PASSWORD, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { auditQuery, loginPayload, tokenPayload } from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf, typedCaller } from "../../support/TypedCaller.js"

layer(testServer(), { excludeTestServices: true })("audit log", (it) => {
  it.effect("records sign-ups, sign-ins (failed too), tokens and invitations, with actor, address and trace", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const anonymous = yield* typedCaller({ address: owner.address })
      yield* failureOf(anonymous.auth.login({ payload: loginPayload(owner.email, "definitely not it") }))
      const [, login] = yield* anonymous.auth.login({
        payload: loginPayload(owner.email, PASSWORD),
        withResponse: true
      })
      const [created, creation] = yield* client.apiTokens.create({
        payload: tokenPayload("deploy-bot", "developer"),
        withResponse: true
      })
      yield* client.invitations.create({
        payload: Schema.decodeUnknownSync(InvitationCreate)({ email: "new.hire@example.com", role: "editor" })
      })
      const all = yield* client.audit.list({ urlParams: {} })
      const actions = all.items.map((record) => record.action)
      expect(actions).toEqual([
        "invitation.created",
        "api-token.created",
        "auth.login.succeeded",
        "auth.login.failed",
        "auth.email.verified",
        "auth.signup"
      ])
      const tokenRecord = all.items[1]
      expect(tokenRecord).toMatchObject({
        actor: { kind: "user", userId: owner.userId },
        resourceType: "api-token",
        resourceId: created.id,
        summary: { before: null, after: { name: "deploy-bot", role: "developer" } },
        traceId: creation.headers["x-trace-id"],
        ipAddress: owner.address,
        sequence: 5
      })
      expect(all.items[2]!.traceId).toBe(login.headers["x-trace-id"])
      // Raw: the log's text as sent (the typed client keeps only the fields its schema knows).
      const raw = yield* exchange(as(HttpClientRequest.get("/v1/audit"), { token: owner.token }))
      expect(raw.text).not.toContain(Redacted.value(created.token))
    }))

  it.effect("filters by action prefix, actor, resource and time, and pages", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      yield* client.apiTokens.create({ payload: tokenPayload("one", "viewer") })
      yield* client.apiTokens.create({ payload: tokenPayload("two", "viewer") })
      const audit = (query: Parameters<typeof auditQuery>[0]) => client.audit.list({ urlParams: auditQuery(query) })
      const byPrefix = yield* audit({ action: "auth.*" })
      expect(byPrefix.items.every((r) => r.action.startsWith("auth."))).toBe(true)
      const tokens = yield* audit({ resourceType: "api-token", limit: "1" })
      expect(tokens).toMatchObject({ total: 2, limit: 1, offset: 0 })
      expect(tokens.items[0]!.summary.after?.name).toBe("two")
      const second = yield* audit({ resourceType: "api-token", limit: "1", offset: "1" })
      expect(second.items[0]!.summary.after?.name).toBe("one")
      expect((yield* audit({ actor: owner.userId })).total).toBe(4)
      expect((yield* audit({ actor: "system" })).total).toBe(0)
      const future = new Date(Date.now() + 3_600_000).toISOString()
      expect((yield* audit({ from: future })).total).toBe(0)
      const reversed = yield* failureOf(audit({ from: future, to: new Date().toISOString() }))
      expect(reversed._tag).toBe("ValidationFailed")
    }))

  it.effect("keeps an unbroken chain of hashes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      for (const name of ["a", "b", "c"]) {
        yield* client.apiTokens.create({ payload: tokenPayload(name, "viewer") })
      }
      const log = yield* AuditLog
      const verdict = yield* log.verifyChain(owner.workspaceId as WorkspaceId)
      expect(verdict).toEqual({ ok: true, records: 5 })
      const page = yield* client.audit.list({ urlParams: {} })
      const [newest, previous] = page.items
      expect(newest!.prevHash).toBe(previous!.hash)
    }).pipe(Effect.provide(AuditLog.Default)))
})
