/**
 * Editing a draft flow node by node and edge by edge, and repairing a node,
 * over real HTTP and the real database: each write answers the new revision,
 * a stale If-Match (or repair body revision) is a 409, unknown nodes and
 * edges are 404s, ids taken are 409s, a graph that would not be well-formed
 * is a 400 with nothing written, a node takes its edges along, viewers may
 * not write, other workspaces see 404s, and every write is audited.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { SORRY_END_TEXT } from "../../../src/domain/assistants/repair/ExitRepairs.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { deploy } from "../../support/Deployments.js"
import { corpus } from "../../support/Fixtures.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

const at = (x: number, y: number) => ({ x, y })

const base = (agentId: string) => `/v1/agents/${agentId}/flow`

const send = (
  account: TestAccount,
  method: "post" | "patch" | "del" | "get" | "put",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {}
) => {
  const request = HttpClientRequest[method](url).pipe(HttpClientRequest.setHeaders(headers))
  return exchange(as(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body), account))
}

const newAssistant = (account: TestAccount) =>
  Effect.flatMap(
    clientOf(account),
    (client) =>
      Effect.map(client.assistants.create({ payload: AssistantCreate.make({ name: "Editing" }) }), (a) => a.id)
  )

const startNode = { id: "start", type: "start", position: at(0, 0), data: {} }
const hello = { id: "hello", type: "message", position: at(0, 100), data: { text: "Hello" } }

layer(testServer(), { excludeTestServices: true })("flow editing", (it) => {
  it.effect("nodes: create (named by the client or the server), patch, delete with their edges", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)

      const created = yield* send(owner, "post", `${url}/nodes`, startNode)
      expect([created.status, created.json]).toEqual([201, { revision: 2, node: startNode }])
      const named = yield* send(owner, "post", `${url}/nodes`, {
        type: "message",
        position: at(0, 100),
        data: { text: "Hi" }
      })
      expect(named.status).toBe(201)
      expect(named.json).toEqual({
        revision: 3,
        node: { id: "message", type: "message", position: at(0, 100), data: { text: "Hi", buttons: [] } }
      })
      const second = yield* send(owner, "post", `${url}/nodes`, { type: "end", position: at(0, 200), data: {} })
      expect(second.json.node.id).toBe("end")
      const third = yield* send(owner, "post", `${url}/nodes`, { type: "end", position: at(0, 300), data: {} })
      expect(third.json.node.id).toBe("end_2")

      const moved = yield* send(owner, "patch", `${url}/nodes/message`, { label: "Greeting", position: at(5, 5) })
      expect(moved.json).toEqual({
        revision: 6,
        node: {
          id: "message",
          type: "message",
          label: "Greeting",
          position: at(5, 5),
          data: { text: "Hi", buttons: [] }
        }
      })
      const rewritten = yield* send(owner, "patch", `${url}/nodes/message`, { type: "message", data: { text: "Bye" } })
      expect(rewritten.json.node).toMatchObject({ label: "Greeting", data: { text: "Bye" } })
      const wrongType = yield* send(owner, "patch", `${url}/nodes/message`, { type: "end", data: {} })
      expect([wrongType.status, wrongType.json._tag, wrongType.json.fields]).toEqual([400, "ValidationFailed", [
        "type"
      ]])

      yield* send(owner, "post", `${url}/edges`, { id: "in", source: "start", target: "message", kind: "next" })
      yield* send(owner, "post", `${url}/edges`, { id: "out", source: "message", target: "end", kind: "next" })
      yield* send(owner, "post", `${url}/edges`, { id: "other", source: "start", target: "end", kind: "fallback" })
      const deleted = yield* send(owner, "del", `${url}/nodes/message`)
      expect([deleted.status, deleted.json]).toEqual([200, {
        revision: 11,
        removedNodeIds: ["message"],
        removedEdgeIds: ["in", "out"]
      }])
      const flow = yield* send(owner, "get", url)
      expect(flow.json.nodes.map((node: { id: string }) => node.id)).toEqual(["start", "end", "end_2"])
      expect(flow.json.edges.map((edge: { id: string }) => edge.id)).toEqual(["other"])
      expect(flow.json.revision).toBe(11)

      // Deleting the start is allowed, like a PUT without one: the analysis reports the missing start.
      expect((yield* send(owner, "del", `${url}/nodes/start`)).json).toMatchObject({ removedEdgeIds: ["other"] })
    }))

  it.effect("edges: create (named by the server from source and route), delete", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, { nodes: [startNode, hello], edges: [] })
      const created = yield* send(owner, "post", `${url}/edges`, { source: "start", target: "hello", kind: "next" })
      expect([created.status, created.json]).toEqual([201, {
        revision: 3,
        edge: { id: "start-next", source: "start", target: "hello", kind: "next" }
      }])
      const again = yield* send(owner, "post", `${url}/edges`, {
        source: "start",
        target: "hello",
        kind: "next",
        label: "twice"
      })
      expect(again.json.edge.id).toBe("start-next_2")
      const removed = yield* send(owner, "del", `${url}/edges/start-next`)
      expect(removed.json).toEqual({ revision: 5, removedNodeIds: [], removedEdgeIds: ["start-next"] })
      const missing = yield* send(owner, "del", `${url}/edges/start-next`)
      expect([missing.status, missing.json._tag, missing.json.edgeId]).toEqual([404, "FlowEdgeNotFound", "start-next"])
    }))

  it.effect("ids taken are 409s, unknown nodes 404s, broken structure a 400, and nothing is written", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, {
        nodes: [startNode, hello],
        edges: [{ id: "e1", source: "start", target: "hello", kind: "next" }]
      })

      const nodeTaken = yield* send(owner, "post", `${url}/nodes`, hello)
      expect([nodeTaken.status, nodeTaken.json._tag, nodeTaken.json.nodeId]).toEqual([409, "FlowNodeIdTaken", "hello"])
      const edgeTaken = yield* send(owner, "post", `${url}/edges`, {
        id: "e1",
        source: "hello",
        target: "start",
        kind: "next"
      })
      expect([edgeTaken.status, edgeTaken.json._tag]).toEqual([409, "FlowEdgeIdTaken"])
      const toNowhere = yield* send(owner, "post", `${url}/edges`, { source: "hello", target: "ghost", kind: "next" })
      expect([toNowhere.status, toNowhere.json._tag]).toEqual([400, "InvalidFlow"])
      expect(toNowhere.json.problems).toMatchObject([{ code: "unknown-edge-endpoint", nodeIds: ["ghost"] }])
      const noSubflow = yield* send(owner, "post", `${url}/nodes`, {
        type: "end",
        position: at(0, 0),
        subflow: "nope",
        data: {}
      })
      expect([noSubflow.status, noSubflow.json.problems[0].code]).toEqual([400, "unknown-subflow"])
      const patchNowhere = yield* send(owner, "patch", `${url}/nodes/ghost`, { label: "x" })
      expect([patchNowhere.status, patchNowhere.json._tag, patchNowhere.json.nodeId]).toEqual([
        404,
        "FlowNodeNotFound",
        "ghost"
      ])
      const deleteNowhere = yield* send(owner, "del", `${url}/nodes/ghost`)
      expect([deleteNowhere.status, deleteNowhere.json._tag]).toEqual([404, "FlowNodeNotFound"])
      const unknownField = yield* send(owner, "post", `${url}/nodes`, { ...hello, id: "x", colour: "red" })
      expect(unknownField.status).toBe(400)
      const badData = yield* send(owner, "post", `${url}/nodes`, { type: "message", position: at(0, 0), data: {} })
      expect(badData.status).toBe(400)
      const badId = yield* send(owner, "patch", `${url}/nodes/${"x".repeat(65)}`, { label: "x" })
      expect(badId.status).toBe(400)

      const flow = yield* send(owner, "get", url)
      expect(flow.json.revision).toBe(2)
      expect(flow.json.nodes).toHaveLength(2)
      expect(flow.json.edges).toHaveLength(1)
    }))

  it.effect("a flow at its size limit refuses another node (400) and a repair that would add one (400)", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      const full = Array.from({ length: 1000 }, (_, index) => ({
        id: `m${index}`,
        type: "message",
        position: at(index, 0),
        data: { text: "Hi" }
      }))
      expect((yield* send(owner, "put", url, { nodes: full, edges: [] })).status).toBe(200)
      const another = yield* send(owner, "post", `${url}/nodes`, { type: "end", position: at(0, 0), data: {} })
      expect([another.status, another.json._tag, another.json.message]).toEqual([
        400,
        "InvalidFlow",
        "A flow holds at most 1000 nodes"
      ])
      const repair = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "m0" })
      expect([repair.status, repair.json._tag]).toEqual([400, "ValidationFailed"])
      expect((yield* send(owner, "get", url)).json).toMatchObject({ revision: 2, edges: [] })
    }))

  it.effect("a stale If-Match is a 409 on every write, and the current one passes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, {
        nodes: [startNode, hello],
        edges: [{ id: "e1", source: "start", target: "hello", kind: "next" }]
      })
      const stale = { "if-match": "1" }
      const writes = [
        send(owner, "post", `${url}/nodes`, { type: "end", position: at(0, 0), data: {} }, stale),
        send(owner, "patch", `${url}/nodes/hello`, { label: "x" }, stale),
        send(owner, "del", `${url}/nodes/hello`, undefined, stale),
        send(owner, "post", `${url}/edges`, { source: "hello", target: "start", kind: "next" }, stale),
        send(owner, "del", `${url}/edges/e1`, undefined, stale),
        send(owner, "post", `${url}/repair-node`, { nodeId: "hello" }, stale),
        send(owner, "post", `${url}/repair-node`, { nodeId: "hello", revision: 1 })
      ]
      for (const write of writes) {
        const res = yield* write
        expect([res.status, res.json]).toMatchObject([409, { _tag: "RevisionConflict", expected: 1, actual: 2 }])
      }
      const current = yield* send(owner, "patch", `${url}/nodes/hello`, { label: "x" }, { "if-match": "2" })
      expect(current.json.revision).toBe(3)
      const disagree = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "hello", revision: 2 }, {
        "if-match": "3"
      })
      expect([disagree.status, disagree.json._tag]).toEqual([400, "ValidationFailed"])
    }))

  it.effect("two writers from one revision: exactly one wins", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, { nodes: [startNode], edges: [] })
      const results = yield* Effect.all(
        Array.from({ length: 6 }, (_, index) =>
          send(owner, "post", `${url}/nodes`, { type: "end", position: at(index, 0), data: {} }, { "if-match": "2" })),
        { concurrency: "unbounded" }
      )
      expect(
        results.map((res) =>
          res.status
        ).sort()
      ).toEqual([201, 409, 409, 409, 409, 409])
      expect((yield* send(owner, "get", url)).json.nodes).toHaveLength(2)
    }))

  it.effect("repair-node fixes one node, answers the diff and the revision, and is idempotent", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, {
        nodes: [startNode, {
          id: "ask",
          type: "question",
          position: at(0, 100),
          data: { prompt: "Name?", variable: "name", validation: { kind: "text" } }
        }],
        edges: [{ id: "e1", source: "start", target: "ask", kind: "next" }, {
          id: "bad",
          source: "ask",
          target: "start",
          kind: "next"
        }]
      })
      const repaired = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "ask" }, { "if-match": "2" })
      expect(repaired.status).toBe(200)
      expect(repaired.json).toMatchObject({
        revision: 3,
        changed: true,
        diff: {
          addedNodes: [
            { id: "ask_end", type: "end", position: at(0, 250), data: {} },
            { id: "sorry_end", type: "end", position: at(200, 250), data: { message: SORRY_END_TEXT } }
          ],
          removedEdges: [{ id: "bad" }],
          addedEdges: [
            { id: "ask-answered", source: "ask", target: "ask_end", kind: "answered" },
            { id: "ask-fallback", source: "ask", target: "sorry_end", kind: "fallback" }
          ],
          changedNodes: [],
          changedEdges: []
        },
        remaining: []
      })
      expect(repaired.json.fixed.map((f: { code: string }) => f.code).sort()).toEqual([
        "dangling-edge",
        "dead-end",
        "question-without-fallback"
      ])
      const again = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "ask", revision: 3 })
      expect(again.json).toMatchObject({ revision: 3, changed: false, fixed: [], remaining: [] })
      expect((yield* send(owner, "get", url)).json.revision).toBe(3)
      const missing = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "ghost" })
      expect([missing.status, missing.json._tag]).toEqual([404, "FlowNodeNotFound"])
      const extra = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "ask", force: true })
      expect(extra.status).toBe(400)
    }))

  /** Each node and edge edit and a repair, by `caller`, on the flow at `url`: their answers. */
  const everyEdit = (caller: Parameters<typeof send>[0], url: string) =>
    Effect.all([
      send(caller, "post", `${url}/nodes`, { type: "end", position: at(0, 0), data: {} }),
      send(caller, "patch", `${url}/nodes/hello`, { label: "x" }),
      send(caller, "del", `${url}/nodes/hello`),
      send(caller, "post", `${url}/edges`, { source: "start", target: "hello", kind: "next" }),
      send(caller, "del", `${url}/edges/e1`),
      send(caller, "post", `${url}/repair-node`, { nodeId: "hello" }),
      send(caller, "post", `${url}/repair`, {})
    ])

  it.effect("POST /flow/repair makes an imported decision tree deployable in one revision, and is idempotent", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const imported = yield* send(owner, "post", "/v1/imports/drawio", {
        xml: readFileSync(corpus("drawio/templates__other__decision_tree_1.xml"), "utf8"),
        target: { kind: "new", name: "Decision tree" }
      })
      expect(imported.status).toBe(201)
      const { agentId, revision } = imported.json
      const url = base(agentId)
      const refused = yield* deploy(owner, agentId)
      expect(refused.status).toBe(422)
      const before = (yield* send(owner, "get", `${url}/analysis`)).json
      expect(before.deployable).toBe(false)
      const original = (yield* send(owner, "get", url)).json

      const stale = yield* send(owner, "post", `${url}/repair`, {}, { "if-match": String(revision - 1) })
      expect([stale.status, stale.json._tag]).toEqual([409, "RevisionConflict"])
      const extra = yield* send(owner, "post", `${url}/repair`, { force: true })
      expect(extra.status).toBe(400)

      const repaired = yield* send(owner, "post", `${url}/repair`, { revision })
      expect(repaired.status).toBe(200)
      expect(repaired.json).toMatchObject({ revision: revision + 1, changed: true, deployable: true })
      expect(repaired.json.diff.removedEdges).toEqual([])
      expect(repaired.json.fixed.length).toBe(
        before.findings.filter((f: { repairable: boolean }) => f.repairable).length
      )
      expect(repaired.json.remaining.filter((f: { severity: string }) => f.severity === "error")).toEqual([])
      const flow = (yield* send(owner, "get", url)).json
      expect(flow.revision).toBe(revision + 1)
      // Every edge of the diagram is still there, beside those the repair added.
      expect(flow.edges).toHaveLength(original.edges.length + repaired.json.diff.addedEdges.length)
      const ids = new Set(flow.edges.map((e: { id: string }) => e.id))
      expect(original.edges.every((e: { id: string }) => ids.has(e.id))).toBe(true)
      const after = (yield* send(owner, "get", `${url}/analysis`)).json
      expect(after).toMatchObject({ deployable: true })
      expect(after.findings).toEqual(repaired.json.remaining)

      const again = yield* send(owner, "post", `${url}/repair`, {})
      expect(again.json).toMatchObject({ revision: revision + 1, changed: false, fixed: [], deployable: true })
      expect((yield* deploy(owner, agentId)).status).toBe(201)
      const log = yield* (yield* clientOf(owner)).audit.list({ urlParams: { limit: 100 } })
      const repairs = log.items.filter((record) => record.action === "flow.repaired")
      expect(repairs).toHaveLength(1)
      expect(repairs[0]!.summary).toMatchObject({
        after: { revision: revision + 1, fixed: repaired.json.fixed.length, removedEdges: 0 }
      })
    }))

  it.effect("viewers may not write; another workspace's flow is a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "put", url, { nodes: [startNode, hello], edges: [] })
      const viewer = yield* join(owner, "viewer")
      const asViewer = { ...viewer, workspaceId: owner.workspaceId }
      const refused = yield* everyEdit(asViewer, url)
      expect(refused.map((res) => [res.status, res.json._tag])).toEqual(Array(7).fill([403, "Forbidden"]))

      const stranger = yield* signUp()
      const elsewhere = yield* everyEdit(stranger, url)
      expect(elsewhere.map((res) => [res.status, res.json._tag])).toEqual(Array(7).fill([404, "AssistantNotFound"]))
      expect((yield* send(owner, "get", url)).json.revision).toBe(2)
    }))

  it.effect("each edit is audited with ids and sizes, never content", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      yield* send(owner, "post", `${url}/nodes`, startNode)
      yield* send(owner, "post", `${url}/nodes`, hello)
      yield* send(owner, "post", `${url}/edges`, { id: "e1", source: "start", target: "hello", kind: "next" })
      yield* send(owner, "post", `${url}/repair-node`, { nodeId: "hello" })
      yield* send(owner, "del", `${url}/edges/e1`)
      yield* send(owner, "del", `${url}/nodes/hello`)
      const client = yield* clientOf(owner)
      const log = yield* client.audit.list({ urlParams: { limit: 100 } })
      const flowRecords = log.items.filter((record) => record.resourceType === "flow").reverse()
      expect(flowRecords.map((record) => record.action)).toEqual([
        "flow.node.created",
        "flow.node.created",
        "flow.edge.created",
        "flow.node.repaired",
        "flow.edge.deleted",
        "flow.node.deleted"
      ])
      expect(flowRecords[3]!.summary).toEqual({
        before: { revision: 4 },
        after: {
          revision: 5,
          nodes: 3,
          edges: 2,
          nodeId: "hello",
          fixed: ["dead-end"],
          addedNodeIds: ["hello_end"],
          removedEdgeIds: [],
          addedEdgeIds: ["hello-next"],
          changedEdgeIds: []
        }
      })
      expect(flowRecords[5]!.summary).toEqual({
        before: { revision: 6 },
        after: { revision: 7, nodes: 2, edges: 0, nodeId: "hello", removedEdgeIds: ["hello-next"] }
      })
      const raw = yield* exchange(as(HttpClientRequest.get("/v1/audit?limit=100"), owner))
      expect(raw.text).not.toContain("Hello")
    }))
})
