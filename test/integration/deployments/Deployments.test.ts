/**
 * Deployments through the typed client, on the real server and database:
 * deploying a draft (both routes, one operation), the token shown once and
 * only its hash stored, a draft with analysis errors refused with its
 * findings, a named revision that is no longer the draft's, the list with its
 * filters and pages, reading, revoking (idempotent, audited), strict bodies,
 * viewers, other workspaces. Raw requests stay for the wire checks.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Schema } from "effect"
import * as Crypto from "node:crypto"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { DeploymentCreateForAgent } from "../../../src/domain/deployments/Deployment.js"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { assistantWithTyped, deploy, deployTyped } from "../../support/Deployments.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const get = (url: string, caller: TestAccount) => exchange(as(HttpClientRequest.get(url), caller))

/** The ids of a page of deployments, in order. */
const ids = (page: { readonly items: ReadonlyArray<{ readonly id: string }> }) => page.items.map((item) => item.id)

const SHOP = "https://shop.example.com"

layer(testServer(), { excludeTestServices: true })("deployments", (it) => {
  it.effect("deploys a draft: the token is shown once, only its hash is kept, and the deployment reads back", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWithTyped(owner, echoFlow)

      const made = yield* deployTyped(owner, agentId, {
        name: "website",
        allowedOrigins: [SHOP, "http://localhost:3000"],
        rateLimitPerMinute: 30
      })
      const token = Redacted.value(made.embedToken)
      expect(token).toMatch(/^cdp_[A-Za-z0-9_-]{43}$/)
      expect(Redacted.value(made.snippet)).toBe(
        `<script src="http://localhost:8080/embed/v1/widget.js" data-token="${token}" async></script>`
      )
      const deployment = made.deployment
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

      // Reading it back gives the same deployment.
      expect(yield* client.deployments.get({ path: { id: deployment.id } })).toEqual(deployment)
      // Raw, a wire check: the body as served, which the typed client would decode down to the contract's
      // fields, carries neither the token's hash nor the snapshot, and never the token again.
      const read = yield* get(`/v1/deployments/${deployment.id}`, owner)
      expect(read.status).toBe(200)
      expect(Object.keys(read.json)).not.toContain("tokenHash")
      expect(Object.keys(read.json)).not.toContain("snapshot")
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
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWithTyped(owner, echoFlow)
      // Raw: a body that leaves out name and rate limit, which the typed client always sends (its schema fills
      // the defaults): the server fills them.
      const made = yield* post("/v1/deployments", { agentId, allowedOrigins: ["*"] }, owner)
      expect(made.status).toBe(201)
      expect(made.json.deployment).toMatchObject({ agentId, name: "", rateLimitPerMinute: 60, allowedOrigins: ["*"] })
      const missing = yield* failureOf(client.deployments.create({
        payload: Schema.decodeSync(DeploymentCreateForAgent)({
          agentId: Crypto.randomUUID(),
          allowedOrigins: ["*"]
        })
      }))
      expect(missing._tag).toBe("AssistantNotFound")
    }))

  it.effect("a draft with analysis errors is refused with 422 and every finding, and nothing is deployed", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = (yield* client.assistants.create({ payload: AssistantCreate.make({ name: "Empty" }) })).id
      const refused = yield* failureOf(deployTyped(owner, agentId))
      expect(refused).toMatchObject({
        _tag: "DeploymentRefused",
        agentId,
        revision: 1,
        findings: [{ code: "missing-start", severity: "error" }]
      })
      // A start that leads nowhere is an error too.
      const broken = yield* client.flows.replaceFlow({
        path: { agent_id: agentId },
        headers: {},
        payload: Schema.decodeUnknownSync(FlowReplace)({
          nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: {} }],
          edges: []
        })
      })
      expect(broken.revision).toBe(2)
      const again = yield* failureOf(deployTyped(owner, agentId))
      expect(again).toMatchObject({
        _tag: "DeploymentRefused",
        findings: [{ code: "dead-end", severity: "error", nodeIds: ["start"] }]
      })
      const listed = yield* client.deployments.list({ urlParams: { agentId } })
      expect(listed.total).toBe(0)
    }))

  it.effect("a named revision must still be the draft's (409 otherwise)", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, echoFlow)
      const stale = yield* failureOf(deployTyped(owner, agentId, { allowedOrigins: ["*"], revision: 1 }))
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      const exact = yield* deployTyped(owner, agentId, { allowedOrigins: ["*"], revision: 2 })
      expect(exact.deployment.revision).toBe(2)
    }))

  it.effect("lists newest first, by Assistant and status, a page at a time", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const first = yield* assistantWithTyped(owner, echoFlow, { name: "First" })
      const second = yield* assistantWithTyped(owner, echoFlow, { name: "Second" })
      const a = (yield* deployTyped(owner, first, { name: "a", allowedOrigins: ["*"] })).deployment.id
      const b = (yield* deployTyped(owner, second, { name: "b", allowedOrigins: ["*"] })).deployment.id
      const c = (yield* deployTyped(owner, first, { name: "c", allowedOrigins: ["*"] })).deployment.id
      expect((yield* client.deployments.revoke({ path: { id: a } })).status).toBe("revoked")

      const all = yield* client.deployments.list({ urlParams: {} })
      expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 })
      expect(ids(all)).toEqual([c, b, a])
      const ofFirst = yield* client.deployments.list({ urlParams: { agentId: first } })
      expect(ids(ofFirst)).toEqual([c, a])
      const live = yield* client.deployments.list({ urlParams: { agentId: first, status: "live" } })
      expect(ids(live)).toEqual([c])
      const revoked = yield* client.deployments.list({ urlParams: { status: "revoked" } })
      expect(ids(revoked)).toEqual([a])
      const page = yield* client.deployments.list({ urlParams: { limit: 1, offset: 1 } })
      expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 })
      expect(ids(page)).toEqual([b])
      // Raw: queries the typed client would refuse to send; the exact status of the decode error.
      expect((yield* get("/v1/deployments?status=paused", owner)).status).toBe(400)
      expect((yield* get("/v1/deployments?agentId=nope", owner)).status).toBe(400)
    }))

  it.effect("revoking is final and idempotent, and audited once", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWithTyped(owner, echoFlow)
      const id = (yield* deployTyped(owner, agentId)).deployment.id
      const revoked = yield* client.deployments.revoke({ path: { id } })
      expect(revoked).toMatchObject({ id, status: "revoked", revokedBy: { kind: "user", userId: owner.userId } })
      expect(revoked.revokedAt).not.toBeNull()
      const again = yield* client.deployments.revoke({ path: { id } })
      expect(again).toEqual(revoked)
      const sql = yield* SqlClient.SqlClient
      const audit = yield* sql<{ action: string }>`
        SELECT action FROM audit_log WHERE resource_id = ${id} ORDER BY sequence`
      expect(audit.map((entry) => entry.action)).toEqual(["deployment.created", "deployment.revoked"])
    }))

  it.effect("bodies are strict: origins, limits, unknown fields", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, echoFlow)
      // Raw: bodies and an id the typed client would refuse to send; the exact status of the decode error.
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
      expect((yield* get("/v1/deployments/not-a-uuid", owner)).status).toBe(400)
      const client = yield* clientOf(owner)
      expect((yield* client.deployments.list({ urlParams: { agentId } })).total).toBe(0)
    }))

  it.effect("viewers read but cannot deploy or revoke; other workspaces see nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, echoFlow)
      const id = (yield* deployTyped(owner, agentId)).deployment.id
      const viewer = yield* join(owner, "viewer")
      const inOwners = yield* clientOf(viewer, owner.workspaceId)
      const denied = yield* failureOf(deployTyped(viewer, agentId, { allowedOrigins: ["*"] }, owner.workspaceId))
      expect(denied._tag).toBe("Forbidden")
      expect((yield* failureOf(inOwners.deployments.revoke({ path: { id } })))._tag).toBe("Forbidden")
      expect((yield* inOwners.deployments.get({ path: { id } })).id).toBe(id)
      expect((yield* inOwners.deployments.list({ urlParams: {} })).total).toBe(1)

      const stranger = yield* signUp()
      const theirClient = yield* clientOf(stranger)
      const notThere = yield* failureOf(theirClient.deployments.get({ path: { id } }))
      expect(notThere._tag).toBe("DeploymentNotFound")
      expect((yield* failureOf(theirClient.deployments.revoke({ path: { id } })))._tag).toBe("DeploymentNotFound")
      expect((yield* theirClient.deployments.list({ urlParams: {} })).total).toBe(0)
      const theirs = yield* failureOf(deployTyped(stranger, agentId))
      expect(theirs._tag).toBe("AssistantNotFound")
      const client = yield* clientOf(owner)
      expect((yield* client.deployments.get({ path: { id } })).status).toBe("live")
    }))
})
