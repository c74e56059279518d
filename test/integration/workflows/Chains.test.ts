/**
 * Workflow chains over HTTP against the real database: CRUD with revisions,
 * steps that must name the workspace's workflows (a pinned version a
 * published one), the signing secret shown once at creation and rotation and
 * stored sealed (never in clear, never in a read), the audit trail, roles as
 * the capability table says and another workspace's chains out of reach.
 * Runs are in ChainRuns.test.ts, the public ingress in PublicIngress.test.ts.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { sign, verify } from "../../../src/domain/webhooks/StandardWebhooks.js"
import { ChainCreate, ChainPatch } from "../../../src/domain/workflows/Chain.js"
import { signUp } from "../../support/Accounts.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

let count = 0
const slugOf = (label: string) => `${label}-${process.pid}-${++count}`
const noHeaders = { headers: {} } as const
const create = (body: Record<string, unknown>) => Schema.decodeUnknownSync(ChainCreate)(body)
const patch = (body: Record<string, unknown>) => Schema.decodeUnknownSync(ChainPatch)(body)

/** A workflow of the workspace with published versions 1..`published` (the last one live). */
const workflowRow = (workspaceId: string, published: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = uuidv7()
    const now = new Date()
    const graph = JSON.stringify({ nodes: [], edges: [] })
    yield* sql`INSERT INTO workflows (id, workspace_id, name, description, graph, revision, status, live_version,
        created_at, updated_at)
      VALUES (${id}, ${workspaceId}, 'Triage', '', ${graph}::jsonb, 1, ${published > 0 ? "live" : "draft"},
        ${published > 0 ? published : null}, ${now}, ${now})`
    for (let version = 1; version <= published; version++) {
      yield* sql`INSERT INTO workflow_versions (workflow_id, version, kind, graph, revision, note, published_by,
          published_at)
        VALUES (${id}, ${version}, 'published', ${graph}::jsonb, 1, '',
          ${JSON.stringify({ kind: "user", userId: uuidv7() })}::jsonb, ${now})`
    }
    return id
  }).pipe(Effect.orDie)

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("Workflow chains", (it) => {
  it.effect("CRUD: created with its secret shown once, read without it, patched with If-Match, deleted", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const workflowId = yield* workflowRow(owner.workspaceId, 2)
      const slug = slugOf("orders")
      const created = yield* client.chains.create({
        payload: create({
          slug,
          name: "Orders",
          steps: [{ id: "triage", workflowId }, { id: "notify", workflowId, version: 1 }]
        })
      })
      expect(created.slug).toBe(slug)
      expect(created.revision).toBe(1)
      expect(created.steps.map((step) => step.id)).toEqual(["triage", "notify"])
      expect(created.steps[0]!.maxAttempts).toBe(3)
      expect(created.ingressSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(created.ingressSecretHint).toBe(`whsec_…${created.ingressSecret.slice(-4)}`)

      const read = yield* client.chains.get({ path: { slug } })
      expect(read).not.toHaveProperty("ingressSecret")
      expect(JSON.stringify(read)).not.toContain(created.ingressSecret.slice(6))

      // The secret is stored sealed: its text appears nowhere in the row.
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ ingressSecret: string }>`SELECT ingress_secret FROM workflow_chains
        WHERE slug = ${slug}`
      expect(row!.ingressSecret.startsWith("v2.")).toBe(true)
      expect(row!.ingressSecret).not.toContain(created.ingressSecret.slice(6, 30))

      const renamed = yield* client.chains.update({
        path: { slug },
        headers: { "if-match": 1 as never },
        payload: patch({ name: "Order events", ingressEnabled: true })
      })
      expect(renamed.name).toBe("Order events")
      expect(renamed.ingressEnabled).toBe(true)
      expect(renamed.revision).toBe(2)
      const stale = yield* Effect.either(client.chains.update({
        path: { slug },
        headers: { "if-match": 1 as never },
        payload: patch({ name: "Lost update" })
      }))
      expect(Either.isLeft(stale) && stale.left._tag).toBe("RevisionConflict")
      expect((yield* client.chains.get({ path: { slug } })).name).toBe("Order events")

      const page = yield* client.chains.list({ urlParams: { q: "order" } })
      expect(page.items.map((chain) => chain.slug)).toContain(slug)

      const taken = yield* Effect.either(client.chains.create({ payload: create({ slug, name: "Again" }) }))
      expect(Either.isLeft(taken) && taken.left._tag).toBe("ChainSlugTaken")

      yield* client.chains.delete({ path: { slug } })
      const gone = yield* Effect.either(client.chains.get({ path: { slug } }))
      expect(Either.isLeft(gone) && gone.left._tag).toBe("ChainNotFound")

      const actions = yield* sql<{ action: string }>`SELECT action FROM audit_log
        WHERE workspace_id = ${owner.workspaceId} AND resource_type = 'workflow-chain' ORDER BY sequence`
      expect(actions.map((record) => record.action)).toEqual([
        "workflow-chain.created",
        "workflow-chain.updated",
        "workflow-chain.deleted"
      ])
    }))

  it.effect("steps must name the workspace's workflows, and a pinned version a published one", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const other = yield* signUp()
      const published = yield* workflowRow(owner.workspaceId, 1)
      const foreign = yield* workflowRow(other.workspaceId, 1)
      const refused = (steps: ReadonlyArray<Record<string, unknown>>) =>
        Effect.flip(client.chains.create({ payload: create({ slug: slugOf("refs"), name: "Refs", steps }) }))

      const unknown = yield* refused([{ id: "a", workflowId: uuidv7() }])
      expect(unknown._tag).toBe("ValidationFailed")
      expect(unknown._tag === "ValidationFailed" && unknown.fields).toEqual(["steps.0.workflowId"])
      const elsewhere = yield* refused([{ id: "a", workflowId: published }, { id: "b", workflowId: foreign }])
      expect(elsewhere._tag === "ValidationFailed" && elsewhere.fields).toEqual(["steps.1.workflowId"])
      const unpublished = yield* refused([{ id: "a", workflowId: published, version: 2 }])
      expect(unpublished._tag === "ValidationFailed" && unpublished.fields).toEqual(["steps.0.version"])

      // A workflow not yet published can be a step that runs its live version once there is one.
      const draftOnly = yield* workflowRow(owner.workspaceId, 0)
      const slug = slugOf("later")
      yield* client.chains.create({
        payload: create({ slug, name: "Later", steps: [{ id: "a", workflowId: draftOnly }] })
      })
      const badPatch = yield* Effect.flip(client.chains.update({
        path: { slug },
        ...noHeaders,
        payload: patch({ steps: [{ id: "a", workflowId: draftOnly, version: 1 }] })
      }))
      expect(badPatch._tag).toBe("ValidationFailed")
      expect((yield* client.chains.get({ path: { slug } })).revision).toBe(1)
    }))

  it.effect("bad bodies are typed 400s: cycles, duplicate step ids, unknown fields, too many steps, NUL bytes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const workflowId = yield* workflowRow(owner.workspaceId, 1)
      const send = (body: unknown) =>
        exchange(
          postRaw("/v1/workflow-chains", JSON.stringify(body)).pipe(HttpClientRequest.bearerToken(owner.token))
        )
      const base = { slug: slugOf("bad"), name: "Bad" }
      const bodies = [
        {
          ...base,
          steps: [{ id: "a", workflowId, next: [{ step: "b" }] }, { id: "b", workflowId, next: [{ step: "a" }] }]
        },
        { ...base, steps: [{ id: "a", workflowId }, { id: "a", workflowId }] },
        { ...base, steps: [{ id: "a", workflowId, next: [{ step: "nowhere" }] }] },
        { ...base, color: "red" },
        { ...base, steps: Array.from({ length: 101 }, (_, i) => ({ id: `s${i}`, workflowId })) },
        { ...base, name: "nul\u0000name" },
        { ...base, slug: "Not A Slug" },
        { ...base, steps: [{ id: "a", workflowId, maxAttempts: 0 }] },
        { ...base, steps: [{ id: "a", workflowId, condition: "" }] }
      ]
      for (const body of bodies) {
        const answer = yield* send(body)
        expect(answer.status, JSON.stringify(body).slice(0, 120)).toBe(400)
      }
      const broken = yield* exchange(
        postRaw("/v1/workflow-chains", "{\"slug\": \"x\", \"name\": \"\\ud800").pipe(
          HttpClientRequest.bearerToken(owner.token)
        )
      )
      expect(broken.status).toBe(400)
      const page = yield* (yield* clientOf(owner)).chains.list({ urlParams: {} })
      expect(page.total).toBe(0)
    }))

  it.effect("rotation: a new secret shown once, the old one no longer matches the stored one", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const slug = slugOf("rotate")
      const created = yield* client.chains.create({ payload: create({ slug, name: "Rotate" }) })
      const rotated = yield* client.chains.rotateIngressSecret({ path: { slug } })
      expect(rotated.ingressSecret).not.toBe(created.ingressSecret)
      expect(rotated.ingressSecretHint).toBe(`whsec_…${rotated.ingressSecret.slice(-4)}`)
      const read = yield* client.chains.get({ path: { slug } })
      expect(read.ingressSecretHint).toBe(rotated.ingressSecretHint)
      expect(read.revision).toBe(2)
      // A delivery signed with the new secret verifies against it; one signed with the old does not.
      const content = { id: "msg_1", timestamp: 1_700_000_000, body: "{}" }
      const options = { secrets: [rotated.ingressSecret], nowSeconds: content.timestamp }
      expect(verify(content, sign(rotated.ingressSecret, content), options)).toBeUndefined()
      expect(verify(content, sign(created.ingressSecret, content), options)?.reason).toBe("mismatch")
    }))

  it.effect("roles: viewers read, editors write, rotating needs a developer; another workspace is 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const slug = slugOf("roles")
      yield* client.chains.create({ payload: create({ slug, name: "Roles" }) })
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)

      expect((yield* viewer.chains.get({ path: { slug } })).slug).toBe(slug)
      const viewerWrite = yield* Effect.flip(viewer.chains.update({
        path: { slug },
        ...noHeaders,
        payload: patch({ name: "Viewer" })
      }))
      expect(viewerWrite._tag).toBe("Forbidden")
      const renamed = yield* editor.chains.update({ path: { slug }, ...noHeaders, payload: patch({ name: "Editor" }) })
      expect(renamed.name).toBe("Editor")
      const editorRotate = yield* Effect.flip(editor.chains.rotateIngressSecret({ path: { slug } }))
      expect(editorRotate._tag).toBe("Forbidden")

      const stranger = yield* clientOf(yield* signUp())
      for (
        const attempt of [
          stranger.chains.get({ path: { slug } }),
          stranger.chains.delete({ path: { slug } }),
          stranger.chains.rotateIngressSecret({ path: { slug } })
        ]
      ) {
        expect((yield* Effect.flip(attempt))._tag).toBe("ChainNotFound")
      }
      expect((yield* client.chains.get({ path: { slug } })).name).toBe("Editor")
    }))
})
