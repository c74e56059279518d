/**
 * Deployments over real HTTP and the real database: deploying a draft (both
 * routes, one operation), the token shown once and only its hash stored, a
 * draft with analysis errors refused with its findings, a named revision that
 * is no longer the draft's, the list with its filters and pages, reading,
 * revoking (idempotent, audited), strict bodies, viewers, other workspaces.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { assistantWith, deploy, replaceFlow } from "../../support/Deployments.js"
import { exchange } from "../../support/Http.js"
import { join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

const get = (url: string, caller: TestAccount) => exchange(as(HttpClientRequest.get(url), caller))

const SHOP = "https://shop.example.com"

layer(testServer(), { excludeTestServices: true })("deployments", (it) => {
  it.effect("deploys a draft: the token is shown once, only its hash is kept, and the deployment reads back", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)

      const made = yield* deploy(owner, agentId, {
        name: "website",
        allowedOrigins: [SHOP, "http://localhost:3000"],
        rateLimitPerMinute: 30
      })
      expect(made.status).toBe(201)
      const token = made.json.embedToken as string
      expect(token).toMatch(/^cdp_[A-Za-z0-9_-]{43}$/)
      expect(made.json.snippet).toBe(
        `<script src="http://localhost:8080/embed/v1/widget.js" data-token="${token}" async></script>`
      )
      const deployment = made.json.deployment
      expect(deployment).toMatchObject({
        agentId,
        workspaceId: owner.workspaceId,
        name: "website",
        status: "live",
        revision: 2,
        intents: [],
        allowedOrigins: [SHOP, "http://localhost:3000"],
        rateLimitPerMinute: 30,
        tokenHint: `cdp_…${token.slice(-4)}`,
        createdBy: { kind: "user", userId: owner.userId },
        revokedAt: null,
        revokedBy: null
      })
      expect(deployment.nluModelVersion).toMatch(/^[a-f0-9]{32}$/)
      expect(Object.keys(deployment)).not.toContain("tokenHash")
      expect(Object.keys(deployment)).not.toContain("snapshot")

      // Reading it back never shows the token again.
      const read = yield* get(`/v1/deployments/${deployment.id}`, owner)
      expect(read.status).toBe(200)
      expect(read.json).toEqual(deployment)
      expect(read.text).not.toContain(token)

      // The database holds the token's SHA-256, and the token itself nowhere.
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ tokenHash: string; whole: string }>`
        SELECT token_hash, to_jsonb(d)::text AS whole FROM deployments d WHERE id = ${deployment.id}`
      expect(row!.tokenHash).toBe(Crypto.createHash("sha256").update(token).digest("hex"))
      expect(row!.whole).not.toContain(token)
      expect(row!.whole).not.toContain(token.slice(4))

      // The snapshot is the draft as Parley's document.
      const [snapshot] = yield* sql<{ snapshot: string }>`
        SELECT snapshot::text AS snapshot FROM deployments WHERE id = ${deployment.id}`
      const document = JSON.parse(snapshot!.snapshot)
      expect(document).toMatchObject({ format: "parley", version: 1, assistant: { name: "Deployed", language: "en" } })
      expect(document.flow.nodes.map((node: { id: string }) => node.id)).toEqual(echoFlow.nodes.map((node) => node.id))

      // The audit log has it, without the token.
      const audit = yield* sql<{ action: string; summary: string }>`
        SELECT action, summary::text AS summary FROM audit_log
        WHERE workspace_id = ${owner.workspaceId} AND resource_id = ${deployment.id} ORDER BY sequence`
      expect(audit.map((entry) => entry.action)).toEqual(["deployment.created"])
      expect(audit[0]!.summary).not.toContain(token)
    }))

  it.effect("POST /deployments names the Assistant in the body and is the same operation", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      const made = yield* post("/v1/deployments", { agentId, allowedOrigins: ["*"] }, owner)
      expect(made.status).toBe(201)
      expect(made.json.deployment).toMatchObject({ agentId, name: "", rateLimitPerMinute: 60, allowedOrigins: ["*"] })
      const missing = yield* post("/v1/deployments", { agentId: Crypto.randomUUID(), allowedOrigins: ["*"] }, owner)
      expect(missing.status).toBe(404)
      expect(missing.json._tag).toBe("AssistantNotFound")
    }))

  it.effect("a draft with analysis errors is refused with 422 and every finding, and nothing is deployed", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* post("/v1/agents", { name: "Empty" }, owner)
      const agentId = created.json.id as string
      const refused = yield* deploy(owner, agentId)
      expect(refused.status).toBe(422)
      expect(refused.json).toMatchObject({
        _tag: "DeploymentRefused",
        agentId,
        revision: 1,
        findings: [{ code: "missing-start", severity: "error" }]
      })
      // A start that leads nowhere is an error too.
      const broken = yield* replaceFlow(owner, agentId, {
        nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} }],
        edges: []
      })
      expect(broken.status).toBe(200)
      const again = yield* deploy(owner, agentId)
      expect(again.status).toBe(422)
      expect(again.json.findings).toMatchObject([{ code: "dead-end", severity: "error", nodeIds: ["start"] }])
      const listed = yield* get(`/v1/deployments?agentId=${agentId}`, owner)
      expect(listed.json.total).toBe(0)
    }))

  it.effect("a named revision must still be the draft's (409 otherwise)", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      const stale = yield* deploy(owner, agentId, { allowedOrigins: ["*"], revision: 1 })
      expect(stale.status).toBe(409)
      expect(stale.json).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      const exact = yield* deploy(owner, agentId, { allowedOrigins: ["*"], revision: 2 })
      expect(exact.status).toBe(201)
      expect(exact.json.deployment.revision).toBe(2)
    }))

  it.effect("lists newest first, by Assistant and status, a page at a time", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const first = yield* assistantWith(owner, echoFlow, { name: "First" })
      const second = yield* assistantWith(owner, echoFlow, { name: "Second" })
      const a = (yield* deploy(owner, first, { name: "a", allowedOrigins: ["*"] })).json.deployment.id
      const b = (yield* deploy(owner, second, { name: "b", allowedOrigins: ["*"] })).json.deployment.id
      const c = (yield* deploy(owner, first, { name: "c", allowedOrigins: ["*"] })).json.deployment.id
      expect((yield* post(`/v1/deployments/${a}/revoke`, {}, owner)).status).toBe(200)

      const all = yield* get("/v1/deployments", owner)
      expect(all.status).toBe(200)
      expect(all.json).toMatchObject({ total: 3, limit: 20, offset: 0 })
      expect(all.json.items.map((item: { id: string }) => item.id)).toEqual([c, b, a])
      const ofFirst = yield* get(`/v1/deployments?agentId=${first}`, owner)
      expect(ofFirst.json.items.map((item: { id: string }) => item.id)).toEqual([c, a])
      const live = yield* get(`/v1/deployments?agentId=${first}&status=live`, owner)
      expect(live.json.items.map((item: { id: string }) => item.id)).toEqual([c])
      const revoked = yield* get("/v1/deployments?status=revoked", owner)
      expect(revoked.json.items.map((item: { id: string }) => item.id)).toEqual([a])
      const page = yield* get("/v1/deployments?limit=1&offset=1", owner)
      expect(page.json).toMatchObject({ total: 3, limit: 1, offset: 1 })
      expect(page.json.items.map((item: { id: string }) => item.id)).toEqual([b])
      expect((yield* get("/v1/deployments?status=paused", owner)).status).toBe(400)
      expect((yield* get("/v1/deployments?agentId=nope", owner)).status).toBe(400)
    }))

  it.effect("revoking is final and idempotent, and audited once", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      const id = (yield* deploy(owner, agentId)).json.deployment.id as string
      const revoked = yield* post(`/v1/deployments/${id}/revoke`, {}, owner)
      expect(revoked.status).toBe(200)
      expect(revoked.json).toMatchObject({ id, status: "revoked", revokedBy: { kind: "user", userId: owner.userId } })
      expect(revoked.json.revokedAt).not.toBeNull()
      const again = yield* post(`/v1/deployments/${id}/revoke`, {}, owner)
      expect(again.status).toBe(200)
      expect(again.json).toEqual(revoked.json)
      const sql = yield* SqlClient.SqlClient
      const audit = yield* sql<{ action: string }>`
        SELECT action FROM audit_log WHERE resource_id = ${id} ORDER BY sequence`
      expect(audit.map((entry) => entry.action)).toEqual(["deployment.created", "deployment.revoked"])
    }))

  it.effect("bodies are strict: origins, limits, unknown fields", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      for (
        const body of [
          {},
          { allowedOrigins: [] },
          { allowedOrigins: ["ftp://shop.example.com"] },
          { allowedOrigins: ["https://shop.example.com/path"] },
          { allowedOrigins: ["*"], rateLimitPerMinute: 0 },
          { allowedOrigins: ["*"], rateLimitPerMinute: 1.5 },
          { allowedOrigins: ["*"], revision: 0 },
          { allowedOrigins: ["*"], status: "revoked" },
          { allowedOrigins: ["*"], tokenHash: "x" }
        ]
      ) {
        const res = yield* deploy(owner, agentId, body)
        expect(res.status, JSON.stringify(body)).toBe(400)
      }
      expect((yield* get(`/v1/deployments?agentId=${agentId}`, owner)).json.total).toBe(0)
      expect((yield* get("/v1/deployments/not-a-uuid", owner)).status).toBe(400)
    }))

  it.effect("viewers read but cannot deploy or revoke; other workspaces see nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      const id = (yield* deploy(owner, agentId)).json.deployment.id as string
      const viewer = yield* join(owner, "viewer")
      const inOwners = { ...viewer, workspaceId: owner.workspaceId }
      const denied = yield* post(`/v1/agents/${agentId}/deployments`, { allowedOrigins: ["*"] }, inOwners)
      expect(denied.status).toBe(403)
      expect(denied.json._tag).toBe("Forbidden")
      expect((yield* post(`/v1/deployments/${id}/revoke`, {}, inOwners)).status).toBe(403)
      expect((yield* get(`/v1/deployments/${id}`, inOwners)).status).toBe(200)
      expect((yield* get("/v1/deployments", inOwners)).json.total).toBe(1)

      const stranger = yield* signUp()
      const notThere = yield* get(`/v1/deployments/${id}`, stranger)
      expect(notThere.status).toBe(404)
      expect(notThere.json._tag).toBe("DeploymentNotFound")
      expect((yield* post(`/v1/deployments/${id}/revoke`, {}, stranger)).status).toBe(404)
      expect((yield* get("/v1/deployments", stranger)).json.total).toBe(0)
      const theirs = yield* deploy(stranger, agentId)
      expect(theirs.status).toBe(404)
      expect(theirs.json._tag).toBe("AssistantNotFound")
      expect((yield* get(`/v1/deployments/${id}`, owner)).json.status).toBe("live")
    }))
})
