/**
 * Every write of the workspace, sign-ins included, lands in its audit log:
 * who, what, on which resource, from where, with the trace id; admins read it
 * filtered and paged, and the chain of hashes holds.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { AuditLog } from "../../../src/services/AuditLog.js"
import { as, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

const audit = (token: string, query = "") => exchange(as(HttpClientRequest.get(`/v1/audit${query}`), { token }))

layer(testServer(), { excludeTestServices: true })("audit log", (it) => {
  it.effect("records sign-ups, sign-ins (failed too), tokens and invitations, with actor, address and trace", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      yield* post("/v1/auth/login", { email: owner.email, password: "definitely not it" }, { address: owner.address })
      const login = yield* post("/v1/auth/login", { email: owner.email, password: PASSWORD }, {
        address: owner.address
      })
      const created = yield* post("/v1/api-tokens", { name: "deploy-bot", role: "developer" }, {
        token: owner.token,
        address: owner.address
      })
      yield* post("/v1/workspaces/invitations", { email: "new.hire@example.com", role: "editor" }, {
        token: owner.token,
        address: owner.address
      })
      const all = yield* audit(owner.token)
      expect(all.status).toBe(200)
      const actions = all.json.items.map((record: { action: string }) => record.action)
      expect(actions).toEqual([
        "invitation.created",
        "api-token.created",
        "auth.login.succeeded",
        "auth.login.failed",
        "auth.email.verified",
        "auth.signup"
      ])
      const tokenRecord = all.json.items[1]
      expect(tokenRecord).toMatchObject({
        actor: { kind: "user", userId: owner.userId },
        resourceType: "api-token",
        resourceId: created.json.id,
        summary: { before: null, after: { name: "deploy-bot", role: "developer" } },
        traceId: created.headers["x-trace-id"],
        ipAddress: owner.address,
        sequence: 5
      })
      expect(all.json.items[2].traceId).toBe(login.headers["x-trace-id"])
      expect(JSON.stringify(all.json)).not.toContain(created.json.token)
    }))

  it.effect("filters by action prefix, actor, resource and time, and pages", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      yield* post("/v1/api-tokens", { name: "one", role: "viewer" }, { token: owner.token })
      yield* post("/v1/api-tokens", { name: "two", role: "viewer" }, { token: owner.token })
      const byPrefix = yield* audit(owner.token, "?action=auth.*")
      expect(byPrefix.json.items.every((r: { action: string }) => r.action.startsWith("auth."))).toBe(true)
      const tokens = yield* audit(owner.token, "?resourceType=api-token&limit=1")
      expect(tokens.json).toMatchObject({ total: 2, limit: 1, offset: 0 })
      expect(tokens.json.items[0].summary.after.name).toBe("two")
      const second = yield* audit(owner.token, "?resourceType=api-token&limit=1&offset=1")
      expect(second.json.items[0].summary.after.name).toBe("one")
      expect((yield* audit(owner.token, `?actor=${owner.userId}`)).json.total).toBe(4)
      expect((yield* audit(owner.token, "?actor=system")).json.total).toBe(0)
      const future = new Date(Date.now() + 3_600_000).toISOString()
      expect((yield* audit(owner.token, `?from=${future}`)).json.total).toBe(0)
      const reversed = yield* audit(owner.token, `?from=${future}&to=${new Date().toISOString()}`)
      expect(reversed.status).toBe(400)
      expect(reversed.json._tag).toBe("ValidationFailed")
    }))

  it.effect("keeps an unbroken chain of hashes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const name of ["a", "b", "c"]) {
        yield* post("/v1/api-tokens", { name, role: "viewer" }, { token: owner.token })
      }
      const log = yield* AuditLog
      const verdict = yield* log.verifyChain(owner.workspaceId as WorkspaceId)
      expect(verdict).toEqual({ ok: true, records: 5 })
      const page = yield* audit(owner.token)
      const [newest, previous] = page.json.items
      expect(newest.prevHash).toBe(previous.hash)
    }).pipe(Effect.provide(AuditLog.Default)))
})
