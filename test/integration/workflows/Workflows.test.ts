/**
 * Graph workflows over HTTP against the real database: the lifecycle (create,
 * read, rename under If-Match, replace the graph, validate-publish, publish,
 * a refused publish, versions paged newest first, restore keeping the draft
 * it overwrites as a saved-draft version, delete taking the versions along),
 * the references validate-publish reads from the workspace (tools, their
 * secrets, agents, the LLM), bad input as typed 4xx, roles, another
 * workspace, and concurrent publishes numbering their versions one by one.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import type { Revision } from "../../../src/domain/Revision.js"
import type { WorkflowId, WorkflowVersionNumber } from "../../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../../src/domain/workflows/Workflow.js"
import { MAX_NODES, WorkflowGraph } from "../../../src/domain/workflows/WorkflowGraph.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange, HttpClientRequest } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow } from "../aiAgents/AgentRows.js"

const noHeaders = { headers: {} } as const
const noNote = { note: "" } as const
const ifMatch = (revision: number) => ({ headers: { "if-match": revision as Revision } })
const graphOf = (value: unknown) => Schema.decodeUnknownSync(WorkflowGraph)(value)
const createOf = (value: unknown) => Schema.decodeUnknownSync(WorkflowCreate)(value)
const version = (n: number) => n as WorkflowVersionNumber

const at = (x: number) => ({ x, y: 0 })
const trigger = {
  id: "start",
  type: "trigger",
  position: at(0),
  data: { kind: "manual", inputs: [{ name: "name", type: "string" }] }
}
const transform = {
  id: "greet",
  type: "transform",
  position: at(200),
  data: { expression: "\"Hello \" & input.name", outputVariable: "greeting" }
}
const output = {
  id: "done",
  type: "output",
  position: at(400),
  data: { format: "text", template: "{{ vars.greeting }}" }
}
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target })

/** trigger → transform → output: a graph with nothing to complain about. */
const validGraph = graphOf({
  nodes: [trigger, transform, output],
  edges: [edge("start", "greet"), edge("greet", "done")]
})
/** The same without its trigger: it cannot start. */
const brokenGraph = graphOf({ nodes: [transform, output], edges: [edge("greet", "done")] })

const send = (account: TestAccount, method: "POST" | "PUT" | "PATCH", url: string, body: string) =>
  exchange(as(HttpClientRequest.make(method)(url).pipe(HttpClientRequest.bodyText(body, "application/json")), account))

const codesOf = (problems: ReadonlyArray<{ readonly code: string }>) => problems.map((problem) => problem.code)

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("graph workflows", (it) => {
  it.effect("the lifecycle: create, rename, graph, validate, publish, refuse, versions, restore, delete", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)

      // Create: a 201 with an empty draft at revision 1.
      const createdRaw = yield* send(owner, "POST", "/v1/workflows", JSON.stringify({ name: "  Greeter  " }))
      expect(createdRaw.status).toBe(201)
      expect(createdRaw.json).toMatchObject({
        name: "Greeter",
        description: "",
        graph: { nodes: [], edges: [] },
        revision: 1,
        status: "draft",
        liveVersion: null,
        workspaceId: owner.workspaceId
      })
      const id = createdRaw.json.id as WorkflowId
      const path = { id }
      expect((yield* client.workflows.get({ path })).name).toBe("Greeter")

      // PATCH under If-Match; a stale one is refused and changes nothing.
      const renamed = yield* client.workflows.update({
        path,
        payload: { name: "Greeter v2", description: "Says hello" },
        ...ifMatch(1)
      })
      expect(renamed).toMatchObject({ name: "Greeter v2", description: "Says hello", revision: 2 })
      const stale = yield* client.workflows.update({ path, payload: { name: "Lost" }, ...ifMatch(1) }).pipe(Effect.flip)
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      expect((yield* client.workflows.get({ path })).name).toBe("Greeter v2")

      // An empty graph is not publishable: no trigger.
      const emptyCheck = yield* client.workflows.validatePublish({ path })
      expect(emptyCheck).toMatchObject({ workflowId: id, revision: 2, publishable: false })
      expect(emptyCheck.errors).toBeGreaterThan(0)
      expect(emptyCheck.problems).toContainEqual(expect.objectContaining({ code: "no-trigger", severity: "error" }))
      const refusedEmpty = yield* client.workflows.publish({ path, payload: noNote, ...noHeaders }).pipe(Effect.flip)
      expect(refusedEmpty).toMatchObject({ _tag: "WorkflowPublishRefused", workflowId: id, revision: 2 })
      expect(refusedEmpty._tag === "WorkflowPublishRefused" && codesOf(refusedEmpty.problems)).toContain("no-trigger")

      // PUT /graph: the draft replaced whole, the revision bumped; a stale If-Match is refused.
      const withGraph = yield* client.workflows.replaceGraph({ path, payload: validGraph, ...ifMatch(2) })
      expect(withGraph.revision).toBe(3)
      expect(withGraph.graph).toEqual(validGraph)
      const staleGraph = yield* client.workflows.replaceGraph({ path, payload: brokenGraph, ...ifMatch(2) }).pipe(
        Effect.flip
      )
      expect(staleGraph._tag).toBe("RevisionConflict")
      expect((yield* client.workflows.get({ path })).graph).toEqual(validGraph)

      const check = yield* client.workflows.validatePublish({ path })
      expect(check).toMatchObject({ workflowId: id, revision: 3, publishable: true, errors: 0 })
      expect(check.problems.filter((problem) => problem.severity === "error")).toEqual([])

      // Publish: version 1, live; the draft's revision is unchanged.
      const v1 = yield* client.workflows.publish({ path, payload: { note: "first" }, ...ifMatch(3) })
      expect(v1).toMatchObject({
        workflowId: id,
        version: 1,
        kind: "published",
        revision: 3,
        note: "first",
        publishedBy: { kind: "user", userId: owner.userId }
      })
      expect(v1.graph).toEqual(validGraph)
      expect(yield* client.workflows.get({ path })).toMatchObject({ status: "live", liveVersion: 1, revision: 3 })
      const stalePublish = yield* client.workflows.publish({ path, payload: noNote, ...ifMatch(2) }).pipe(Effect.flip)
      expect(stalePublish).toMatchObject({ _tag: "RevisionConflict", expected: 2, actual: 3 })

      // A broken draft: the publish is refused with every problem; version 1 stays live.
      yield* client.workflows.replaceGraph({ path, payload: brokenGraph, ...ifMatch(3) })
      const refused = yield* client.workflows.publish({ path, payload: noNote, ...ifMatch(4) }).pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "WorkflowPublishRefused", revision: 4 })
      const brokenCheck = yield* client.workflows.validatePublish({ path })
      expect(refused._tag === "WorkflowPublishRefused" && refused.problems).toEqual(brokenCheck.problems)
      expect(codesOf(brokenCheck.problems)).toContain("no-trigger")
      expect(yield* client.workflows.get({ path })).toMatchObject({ liveVersion: 1, revision: 4 })
      expect((yield* client.workflows.listVersions({ path, urlParams: {} })).total).toBe(1)

      // Restore version 1: the broken draft (held by no version) is saved as version 2 first.
      const restored = yield* client.workflows.restoreVersion({ path: { id, version_id: version(1) }, ...ifMatch(4) })
      expect(restored).toMatchObject({ revision: 5, liveVersion: 1, status: "live" })
      expect(restored.graph).toEqual(validGraph)
      const afterRestore = yield* client.workflows.listVersions({ path, urlParams: {} })
      expect(afterRestore.items.map((v) => [v.version, v.kind])).toEqual([[2, "saved-draft"], [1, "published"]])
      const saved = afterRestore.items[0]!
      expect(saved).toMatchObject({ revision: 4, publishedBy: { kind: "user", userId: owner.userId } })
      expect(saved.graph).toEqual(brokenGraph)
      expect(saved.note).toContain("revision 4")
      expect(saved.note).toContain("version 1")

      // The draft now equals version 1: restoring again saves nothing. Restoring the saved draft works like any version.
      yield* client.workflows.restoreVersion({ path: { id, version_id: version(1) }, ...ifMatch(5) })
      expect((yield* client.workflows.listVersions({ path, urlParams: {} })).total).toBe(2)
      const back = yield* client.workflows.restoreVersion({ path: { id, version_id: version(2) }, ...noHeaders })
      expect(back).toMatchObject({ revision: 7, liveVersion: 1 })
      expect(back.graph).toEqual(brokenGraph)
      expect((yield* client.workflows.listVersions({ path, urlParams: {} })).total).toBe(2)
      const staleRestore = yield* client.workflows.restoreVersion({
        path: { id, version_id: version(1) },
        ...ifMatch(6)
      })
        .pipe(Effect.flip)
      expect(staleRestore._tag).toBe("RevisionConflict")
      const missing = yield* client.workflows.restoreVersion({ path: { id, version_id: version(9) }, ...noHeaders })
        .pipe(Effect.flip)
      expect(missing).toMatchObject({ _tag: "WorkflowVersionNotFound", workflowId: id, version: 9 })
      expect((yield* client.workflows.get({ path })).revision).toBe(7)

      // Publish again from version 1's graph: version 3 is live, numbered after the saved draft.
      yield* client.workflows.restoreVersion({ path: { id, version_id: version(1) }, ...noHeaders })
      const v3 = yield* client.workflows.publish({ path, payload: { note: "again" }, ...noHeaders })
      expect(v3).toMatchObject({ version: 3, kind: "published", revision: 8 })
      expect((yield* client.workflows.get({ path })).liveVersion).toBe(3)

      // Versions: newest first, paged.
      const page1 = yield* client.workflows.listVersions({ path, urlParams: { limit: 2 } })
      expect(page1).toMatchObject({ total: 3, limit: 2, offset: 0 })
      expect(page1.items.map((v) => v.version)).toEqual([3, 2])
      const page2 = yield* client.workflows.listVersions({ path, urlParams: { limit: 2, offset: 2 } })
      expect(page2.items.map((v) => v.version)).toEqual([1])

      // The list: summaries without the graph, with its node count; filters by status and name.
      const draftOnly = yield* client.workflows.create({ payload: createOf({ name: "Scratch pad" }) })
      const listed = yield* client.workflows.list({ urlParams: {} })
      expect(listed).toMatchObject({ total: 2, limit: 20, offset: 0 })
      expect(listed.items.map((item) => item.id)).toEqual([id, draftOnly.id])
      expect(listed.items[0]).toMatchObject({ name: "Greeter v2", nodeCount: 3, status: "live", liveVersion: 3 })
      expect(listed.items[1]).toMatchObject({ nodeCount: 0, status: "draft", liveVersion: null })
      expect(listed.items[0]).not.toHaveProperty("graph")
      const names = (urlParams: Parameters<typeof client.workflows.list>[0]["urlParams"]) =>
        Effect.map(client.workflows.list({ urlParams }), (page) => page.items.map((item) => item.name))
      expect(yield* names({ status: "live" })).toEqual(["Greeter v2"])
      expect(yield* names({ status: "draft" })).toEqual(["Scratch pad"])
      expect(yield* names({ q: "PAD" })).toEqual(["Scratch pad"])
      expect(yield* names({ q: "nothing like it" })).toEqual([])
      const second = yield* client.workflows.list({ urlParams: { limit: 1, offset: 1 } })
      expect(second).toMatchObject({ total: 2, limit: 1, offset: 1 })
      expect(second.items.map((item) => item.id)).toEqual([draftOnly.id])

      // Every write is in the audit log.
      const events = yield* client.audit.list({ urlParams: { resourceType: "workflow", resourceId: id } })
      const actions = events.items.map((event) => event.action)
      expect(actions.filter((action) => action === "workflow.published")).toHaveLength(2)
      expect(actions.filter((action) => action === "workflow.restored")).toHaveLength(4)
      expect(actions).toContain("workflow.created")
      const firstRestore = events.items.filter((event) => event.action === "workflow.restored").at(-1)!
      expect(firstRestore.summary.after).toMatchObject({ version: 1, savedDraftVersion: 2 })

      // Delete: the versions go with it; the workflow is gone.
      yield* client.workflows.delete({ path })
      expect((yield* client.workflows.get({ path }).pipe(Effect.flip))._tag).toBe("WorkflowNotFound")
      expect((yield* client.workflows.listVersions({ path, urlParams: {} }).pipe(Effect.flip))._tag).toBe(
        "WorkflowNotFound"
      )
      expect((yield* client.workflows.delete({ path }).pipe(Effect.flip))._tag).toBe("WorkflowNotFound")
      const [left] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM workflow_versions
        WHERE workflow_id = ${id}`
      expect(left!.count).toBe(0)
      const deleted = yield* client.audit.list({ urlParams: { action: "workflow.deleted", resourceId: id } })
      expect(deleted.total).toBe(1)
    }))

  it.effect("validate-publish reads the workspace: tools and their secrets, agents, the LLM", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const toolId = uuidv7()
      const definition = {
        inputSchema: { type: "object", properties: {} },
        method: "GET",
        url: "https://api.example.com/orders",
        headers: { authorization: { secret: "GONE_KEY", prefix: "Bearer " } },
        query: {},
        body: null,
        timeoutSeconds: 10,
        maxResponseBytes: 1_048_576,
        allowedDomains: []
      }
      yield* sql`INSERT INTO workspace_tools (id, workspace_id, name, description, definition, created_by, created_at,
          updated_at)
        VALUES (${toolId}, ${owner.workspaceId}, 'orders', 'Reads orders', ${JSON.stringify(definition)}::jsonb,
          ${JSON.stringify({ kind: "user", userId: owner.userId })}::jsonb, now(), now())`
      const unpublished = yield* agentRow(owner.workspaceId)
      const callsOut = (node: Record<string, unknown>) => ({ position: at(200), ...node })
      const graph = graphOf({
        nodes: [
          trigger,
          callsOut({ id: "fetch", type: "http", data: { toolId, outputVariable: "order" } }),
          callsOut({ id: "nowhere", type: "http", data: { toolId: uuidv7(), outputVariable: "lost" } }),
          callsOut({
            id: "ask",
            type: "ai-agent",
            data: { agentSlug: unpublished.slug, message: "Hi", outputVariable: "a" }
          }),
          callsOut({
            id: "ghost",
            type: "ai-agent",
            data: { agentSlug: "no-such-agent", message: "Hi", outputVariable: "b" }
          }),
          callsOut({ id: "think", type: "llm", data: { prompt: "Say hi", outputVariable: "c" } }),
          output
        ],
        edges: [
          edge("start", "fetch"),
          edge("fetch", "nowhere"),
          edge("nowhere", "ask"),
          edge("ask", "ghost"),
          edge("ghost", "think"),
          edge("think", "done")
        ]
      })
      const created = yield* client.workflows.create({ payload: createOf({ name: "References", graph }) })
      const path = { id: created.id }
      const at_ = (nodeId: string) =>
        Effect.map(
          client.workflows.validatePublish({ path }),
          (check) => check.problems.filter((problem) => problem.nodeId === nodeId).map((problem) => problem.code)
        )
      expect(yield* at_("fetch")).toContain("missing-secret")
      expect(yield* at_("nowhere")).toContain("missing-tool")
      expect(yield* at_("ask")).toContain("agent-not-published")
      expect(yield* at_("ghost")).toContain("missing-agent")
      // The offline default counts as a configured model.
      expect(yield* at_("think")).not.toContain("llm-not-configured")

      // The secret appears, the agent goes live: those problems go; an openai connection whose key is missing does not count.
      const secret = yield* send(owner, "POST", "/v1/secrets", JSON.stringify({ name: "GONE_KEY", value: "s3cret" }))
      expect(secret.status).toBe(201)
      yield* sql`UPDATE ai_agents SET live_version = 1 WHERE id = ${unpublished.id}`
      yield* sql`INSERT INTO agent_llm_settings (workspace_id, primary_connection)
        VALUES (${owner.workspaceId}, ${
        JSON.stringify({
          provider: "openai",
          baseUrl: null,
          model: "gpt-4.1-mini",
          apiKeySecret: "MISSING_OPENAI_KEY",
          temperature: 0.3,
          maxOutputTokens: 1024,
          requestTimeoutSeconds: 60
        })
      }::jsonb)`
      expect(yield* at_("fetch")).not.toContain("missing-secret")
      expect(yield* at_("ask")).not.toContain("agent-not-published")
      expect(yield* at_("think")).toContain("llm-not-configured")
      const check = yield* client.workflows.validatePublish({ path })
      expect(check.publishable).toBe(false)
      expect(check.errors + check.warnings).toBe(check.problems.length)
    }))

  it.effect("bad input is a typed 400: unknown fields, duplicate ids, too many nodes, unstorable text, wrong types", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.workflows.create({ payload: createOf({ name: "Strict" }) })
      const url = `/v1/workflows/${created.id}`
      const node = (id: string, x = 0) => ({ ...trigger, id, position: at(x) })
      const cases: ReadonlyArray<readonly [string, "POST" | "PUT" | "PATCH", string, string]> = [
        ["unknown field on create", "POST", "/v1/workflows", JSON.stringify({ name: "x", colour: "red" })],
        ["empty name", "POST", "/v1/workflows", JSON.stringify({ name: "   " })],
        ["name too long", "POST", "/v1/workflows", JSON.stringify({ name: "n".repeat(121) })],
        ["NUL in the name", "POST", "/v1/workflows", `{"name":"a\\u0000b"}`],
        ["lone surrogate in the name", "POST", "/v1/workflows", `{"name":"a\\ud800b"}`],
        ["NUL in a renamed name", "PATCH", url, `{"name":"a\\u0000b"}`],
        ["lone surrogate in the description", "PATCH", url, `{"description":"\\udc00"}`],
        ["a number as name", "PATCH", url, JSON.stringify({ name: 12 })],
        ["unknown field on patch", "PATCH", url, JSON.stringify({ graph: { nodes: [], edges: [] } })],
        ["unknown field in a graph", "PUT", `${url}/graph`, JSON.stringify({ nodes: [], edges: [], extra: 1 })],
        [
          "unknown field in a node",
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: [{ ...node("a"), colour: 1 }], edges: [] })
        ],
        [
          "unknown field in a node's data",
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: [{ ...node("a"), data: { kind: "manual", cron: "* * * * *" } }], edges: [] })
        ],
        [
          "unknown field in an edge",
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: [], edges: [{ ...edge("a", "b"), weight: 2 }] })
        ],
        ["duplicate node ids", "PUT", `${url}/graph`, JSON.stringify({ nodes: [node("a"), node("a", 10)], edges: [] })],
        [
          "duplicate edge ids",
          "PUT",
          `${url}/graph`,
          JSON.stringify({
            nodes: [node("a"), node("b")],
            edges: [{ ...edge("a", "b"), id: "e" }, { ...edge("b", "a"), id: "e" }]
          })
        ],
        [
          `${MAX_NODES + 1} nodes`,
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: Array.from({ length: MAX_NODES + 1 }, (_, i) => node(`n${i}`, i)), edges: [] })
        ],
        [
          "an unknown node type",
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: [{ ...node("a"), type: "eval" }], edges: [] })
        ],
        ["a bad node id", "PUT", `${url}/graph`, JSON.stringify({ nodes: [node("has space")], edges: [] })],
        ["nodes not a list", "PUT", `${url}/graph`, JSON.stringify({ nodes: {}, edges: [] })],
        [
          "a string position",
          "PUT",
          `${url}/graph`,
          JSON.stringify({ nodes: [{ ...node("a"), position: "0,0" }], edges: [] })
        ],
        [
          "NUL in a node label",
          "PUT",
          `${url}/graph`,
          `{"nodes":[${JSON.stringify(node("a")).slice(0, -1)},"label":"a\\u0000"}],"edges":[]}`
        ],
        ["unknown field on publish", "POST", `${url}/publish`, JSON.stringify({ note: "x", force: true })],
        ["a number as note", "POST", `${url}/publish`, JSON.stringify({ note: 1 })]
      ]
      for (const [label, method, target, body] of cases) {
        const answer = yield* send(owner, method, target, body)
        expect(answer.status, `${label}: ${answer.text.slice(0, 200)}`).toBe(400)
        expect(answer.json?._tag, label).toMatch(/^(HttpApiDecodeError|InvalidText)$/)
      }
      const badQueries = ["?limit=0", "?limit=101", "?offset=-1", "?status=archived", "?q="]
      for (const query of badQueries) {
        const answer = yield* exchange(as(HttpClientRequest.get(`/v1/workflows${query}`), owner))
        expect(answer.status, query).toBe(400)
      }
      const badIds = [
        yield* exchange(as(HttpClientRequest.get("/v1/workflows/not-a-uuid"), owner)),
        yield* exchange(as(HttpClientRequest.post(`${url}/versions/0/restore`), owner)),
        yield* exchange(as(HttpClientRequest.post(`${url}/versions/one/restore`), owner)),
        yield* exchange(as(
          HttpClientRequest.patch(url).pipe(
            HttpClientRequest.setHeader("if-match", "abc"),
            HttpClientRequest.bodyText(JSON.stringify({ name: "y" }), "application/json")
          ),
          owner
        ))
      ]
      expect(badIds.map((answer) => answer.status)).toEqual([400, 400, 400, 400])
      expect((yield* send(owner, "PATCH", url, JSON.stringify({ name: "x" }))).status).toBe(200)
      // Nothing refused was stored: the draft moved only by the one good rename, and MAX_NODES nodes are fine.
      const after = yield* client.workflows.get({ path: { id: created.id } })
      expect(after).toMatchObject({ name: "x", revision: 2, graph: { nodes: [], edges: [] } })
      const full = graphOf({ nodes: Array.from({ length: MAX_NODES }, (_, i) => node(`n${i}`, i)), edges: [] })
      expect(
        (yield* client.workflows.replaceGraph({ path: { id: created.id }, payload: full, ...noHeaders })).graph.nodes
      )
        .toHaveLength(MAX_NODES)
    }))

  it.effect("roles: a viewer reads and validates, an editor edits, a developer publishes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const mine = yield* clientOf(owner)
      const created = yield* mine.workflows.create({ payload: createOf({ name: "Shared", graph: validGraph }) })
      const path = { id: created.id }
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      expect((yield* viewer.workflows.list({ urlParams: {} })).total).toBe(1)
      expect((yield* viewer.workflows.get({ path })).id).toBe(created.id)
      expect((yield* viewer.workflows.validatePublish({ path })).publishable).toBe(true)
      expect((yield* viewer.workflows.listVersions({ path, urlParams: {} })).total).toBe(0)
      const viewerWrites = [
        yield* viewer.workflows.create({ payload: createOf({ name: "No" }) }).pipe(Effect.flip),
        yield* viewer.workflows.update({ path, payload: { name: "No" }, ...noHeaders }).pipe(Effect.flip),
        yield* viewer.workflows.replaceGraph({ path, payload: brokenGraph, ...noHeaders }).pipe(Effect.flip),
        yield* viewer.workflows.restoreVersion({ path: { ...path, version_id: version(1) }, ...noHeaders }).pipe(
          Effect.flip
        ),
        yield* viewer.workflows.delete({ path }).pipe(Effect.flip)
      ]
      for (const refused of viewerWrites) {
        expect(refused).toMatchObject({ _tag: "Forbidden", capability: "workflow.write" })
      }
      expect(yield* viewer.workflows.publish({ path, payload: noNote, ...noHeaders }).pipe(Effect.flip)).toMatchObject({
        _tag: "Forbidden",
        capability: "workflow.publish"
      })

      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
      const edited = yield* editor.workflows.update({ path, payload: { description: "edited" }, ...noHeaders })
      expect(edited.revision).toBe(2)
      const drafted = yield* editor.workflows.create({ payload: createOf({ name: "Editor's" }) })
      expect(drafted.status).toBe("draft")
      expect(yield* editor.workflows.publish({ path, payload: noNote, ...noHeaders }).pipe(Effect.flip)).toMatchObject({
        _tag: "Forbidden",
        capability: "workflow.publish"
      })
      expect((yield* mine.workflows.get({ path })).liveVersion).toBeNull()

      const developer = yield* clientOf(yield* join(owner, "developer"), owner.workspaceId)
      const published = yield* developer.workflows.publish({ path, payload: noNote, ...noHeaders })
      expect(published).toMatchObject({ version: 1, kind: "published" })
      yield* editor.workflows.delete({ path: { id: drafted.id } })
      expect((yield* mine.workflows.list({ urlParams: {} })).total).toBe(1)
    }))

  it.effect("another workspace's workflow is a 404 on every route, and stays as it was", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const mine = yield* clientOf(owner)
      const created = yield* mine.workflows.create({ payload: createOf({ name: "Private", graph: validGraph }) })
      yield* mine.workflows.publish({ path: { id: created.id }, payload: noNote, ...noHeaders })
      const path = { id: created.id }
      const stranger = yield* clientOf(yield* signUp())
      const attempts = [
        yield* stranger.workflows.get({ path }).pipe(Effect.flip),
        yield* stranger.workflows.update({ path, payload: { name: "Mine now" }, ...noHeaders }).pipe(Effect.flip),
        yield* stranger.workflows.replaceGraph({ path, payload: brokenGraph, ...noHeaders }).pipe(Effect.flip),
        yield* stranger.workflows.validatePublish({ path }).pipe(Effect.flip),
        yield* stranger.workflows.publish({ path, payload: noNote, ...noHeaders }).pipe(Effect.flip),
        yield* stranger.workflows.listVersions({ path, urlParams: {} }).pipe(Effect.flip),
        yield* stranger.workflows.restoreVersion({ path: { ...path, version_id: version(1) }, ...noHeaders }).pipe(
          Effect.flip
        ),
        yield* stranger.workflows.delete({ path }).pipe(Effect.flip)
      ]
      expect(attempts.map((error) => error._tag)).toEqual(Array(8).fill("WorkflowNotFound"))
      expect((yield* stranger.workflows.list({ urlParams: {} })).total).toBe(0)
      const still = yield* mine.workflows.get({ path })
      expect(still).toMatchObject({ name: "Private", revision: 1, liveVersion: 1 })
      expect(still.graph).toEqual(validGraph)
      expect((yield* mine.workflows.listVersions({ path, urlParams: {} })).total).toBe(1)
    }))

  it.effect("concurrent publishes number their versions one by one: never a duplicate, never one lost", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.workflows.create({ payload: createOf({ name: "Racy", graph: validGraph }) })
      const path = { id: created.id }
      const publishAll = (count: number) =>
        Effect.all(
          Array.from({ length: count }, () =>
            client.workflows.publish({ path, payload: noNote, ...ifMatch(1) }).pipe(Effect.either)),
          { concurrency: "unbounded" }
        )
      const two = yield* publishAll(2)
      expect(two.every(Either.isRight)).toBe(true)
      expect(two.flatMap((result) => Either.isRight(result) ? [result.right.version] : []).sort()).toEqual([1, 2])
      const four = yield* publishAll(4)
      expect(four.flatMap((result) => Either.isRight(result) ? [result.right.version] : []).sort()).toEqual([
        3,
        4,
        5,
        6
      ])
      const versions = yield* client.workflows.listVersions({ path, urlParams: {} })
      expect(versions.items.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1])
      const live = (yield* client.workflows.get({ path })).liveVersion
      expect(live).toBe(6)
    }))
})
