/**
 * Editing a draft flow node by node and edge by edge, and repairing a node,
 * through the typed client over real HTTP and the real database: each write
 * answers the new revision, a stale If-Match (or repair body revision) is a
 * RevisionConflict (409), unknown nodes and edges are NotFound (404), ids
 * taken are IdTaken (409), a graph that would not be well-formed is an
 * InvalidFlow (400) with nothing written, a node takes its edges along,
 * viewers may not write (Forbidden), other workspaces see AssistantNotFound,
 * and every write is audited. Raw requests stay for the bodies the typed
 * client would refuse to send and for the audit log's wire text.
 *
 * The typed client decodes a success only at the status the contract
 * declares for it (201 for a create, 200 otherwise) and an error only at its
 * own status, so a typed result or error tag asserts the status as well.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { readFileSync } from "node:fs"
import { AssistantCreate, type AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { FlowEdgeCreate } from "../../../src/domain/assistants/FlowEdge.js"
import { FlowEdgeId, FlowNodeId } from "../../../src/domain/assistants/FlowIds.js"
import { FlowNodeCreate, FlowNodePatch } from "../../../src/domain/assistants/FlowNode.js"
import { RepairFlowRequest, RepairNodeRequest } from "../../../src/domain/assistants/FlowRepair.js"
import { SORRY_END_TEXT } from "../../../src/domain/assistants/repair/ExitRepairs.js"
import { DeploymentCreate } from "../../../src/domain/deployments/Deployment.js"
import { DrawioImportRequest } from "../../../src/domain/imports/ImportRequest.js"
import { type IfMatchHeaders, Revision } from "../../../src/domain/Revision.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { corpus } from "../../support/Fixtures.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const at = (x: number, y: number) => ({ x, y })

const base = (agentId: string) => `/v1/agents/${agentId}/flow`

/** A raw request: only for bodies and ids the typed client would refuse to send. */
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

type IfMatch = typeof IfMatchHeaders.Type

/** `If-Match: <revision>`. */
const ifMatch = (revision: number): IfMatch => ({ "if-match": Revision.make(revision) })

/**
 * A body of a union schema (FlowNodeCreate, FlowEdgeCreate), decoded from a
 * plain object. The typed client's request type splits a union payload into
 * one request per member, which a value of the whole union does not fit; the
 * client encodes it with the whole union at run time.
 */
const unionBody = <A, I>(schema: Schema.Schema<A, I>, body: unknown): never =>
  Schema.decodeUnknownSync(schema)(body) as never

/**
 * The typed flow endpoints of one Assistant, called by `account` (in
 * `workspaceId`, else its own workspace); bodies are built with the domain
 * schemas.
 */
const flowOf = (account: TestAccount, agentId: AssistantId, workspaceId?: string) =>
  Effect.map(clientOf(account, workspaceId), (client) => {
    const path = { agent_id: agentId }
    const node = (nodeId: string) => ({ ...path, node_id: FlowNodeId.make(nodeId) })
    return {
      get: () => client.flows.getFlow({ path }),
      analysis: () => client.flows.getAnalysis({ path }),
      replace: (flow: unknown) =>
        client.flows.replaceFlow({ path, headers: {}, payload: Schema.decodeUnknownSync(FlowReplace)(flow) }),
      createNode: (body: unknown, headers: IfMatch = {}) =>
        client.flows.createNode({ path, headers, payload: unionBody(FlowNodeCreate, body) }),
      updateNode: (nodeId: string, body: unknown, headers: IfMatch = {}) =>
        client.flows.updateNode({
          path: node(nodeId),
          headers,
          payload: Schema.decodeUnknownSync(FlowNodePatch)(body)
        }),
      deleteNode: (nodeId: string, headers: IfMatch = {}) => client.flows.deleteNode({ path: node(nodeId), headers }),
      createEdge: (body: unknown, headers: IfMatch = {}) =>
        client.flows.createEdge({ path, headers, payload: unionBody(FlowEdgeCreate, body) }),
      deleteEdge: (edgeId: string, headers: IfMatch = {}) =>
        client.flows.deleteEdge({ path: { ...path, edge_id: FlowEdgeId.make(edgeId) }, headers }),
      repairNode: (body: unknown, headers: IfMatch = {}) =>
        client.flows.repairNode({ path, headers, payload: Schema.decodeUnknownSync(RepairNodeRequest)(body) }),
      repairFlow: (body: unknown, headers: IfMatch = {}) =>
        client.flows.repairFlow({ path, headers, payload: Schema.decodeUnknownSync(RepairFlowRequest)(body) })
    }
  })

type FlowOf = Effect.Effect.Success<ReturnType<typeof flowOf>>

/** The typed error `call` fails with, which must be tagged `tag`: narrowed to it, so its fields can be read. */
const failsWith = <A, E extends { readonly _tag: string }, R, const T extends E["_tag"]>(
  call: Effect.Effect<A, E, R>,
  tag: T
) =>
  Effect.map(failureOf(call), (error) => {
    expect(error._tag).toBe(tag)
    return error as Extract<E, { readonly _tag: T }>
  })

const startNode = { id: "start", type: "start", position: at(0, 0), data: {} }
const hello = { id: "hello", type: "message", position: at(0, 100), data: { text: "Hello" } }

layer(testServer(), { excludeTestServices: true })("flow editing", (it) => {
  it.effect("nodes: create (named by the client or the server), patch, delete with their edges", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)

      const created = yield* flow.createNode(startNode)
      expect(created).toEqual({ revision: 2, node: startNode })
      const named = yield* flow.createNode({ type: "message", position: at(0, 100), data: { text: "Hi" } })
      expect(named).toEqual({
        revision: 3,
        node: { id: "message", type: "message", position: at(0, 100), data: { text: "Hi", buttons: [] } }
      })
      const second = yield* flow.createNode({ type: "end", position: at(0, 200), data: {} })
      expect(second.node.id).toBe("end")
      const third = yield* flow.createNode({ type: "end", position: at(0, 300), data: {} })
      expect(third.node.id).toBe("end_2")

      const moved = yield* flow.updateNode("message", { label: "Greeting", position: at(5, 5) })
      expect(moved).toEqual({
        revision: 6,
        node: {
          id: "message",
          type: "message",
          label: "Greeting",
          position: at(5, 5),
          data: { text: "Hi", buttons: [] }
        }
      })
      const rewritten = yield* flow.updateNode("message", { type: "message", data: { text: "Bye" } })
      expect(rewritten.node).toMatchObject({ label: "Greeting", data: { text: "Bye" } })
      const wrongType = yield* failsWith(flow.updateNode("message", { type: "end", data: {} }), "ValidationFailed")
      expect(wrongType.fields).toEqual(["type"])

      yield* flow.createEdge({ id: "in", source: "start", target: "message", kind: "next" })
      yield* flow.createEdge({ id: "out", source: "message", target: "end", kind: "next" })
      yield* flow.createEdge({ id: "other", source: "start", target: "end", kind: "fallback" })
      const deleted = yield* flow.deleteNode("message")
      expect(deleted).toEqual({ revision: 11, removedNodeIds: ["message"], removedEdgeIds: ["in", "out"] })
      const current = yield* flow.get()
      expect(current.nodes.map((node) => node.id)).toEqual(["start", "end", "end_2"])
      expect(current.edges.map((edge) => edge.id)).toEqual(["other"])
      expect(current.revision).toBe(11)

      // Deleting the start is allowed, like a PUT without one: the analysis reports the missing start.
      expect(yield* flow.deleteNode("start")).toMatchObject({ removedEdgeIds: ["other"] })
    }))

  it.effect("edges: create (named by the server from source and route), delete", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({ nodes: [startNode, hello], edges: [] })
      const created = yield* flow.createEdge({ source: "start", target: "hello", kind: "next" })
      expect(created).toEqual({
        revision: 3,
        edge: { id: "start-next", source: "start", target: "hello", kind: "next" }
      })
      const again = yield* flow.createEdge({ source: "start", target: "hello", kind: "next", label: "twice" })
      expect(again.edge.id).toBe("start-next_2")
      const removed = yield* flow.deleteEdge("start-next")
      expect(removed).toEqual({ revision: 5, removedNodeIds: [], removedEdgeIds: ["start-next"] })
      const missing = yield* failsWith(flow.deleteEdge("start-next"), "FlowEdgeNotFound")
      expect(missing.edgeId).toBe("start-next")
    }))

  it.effect("ids taken are 409s, unknown nodes 404s, broken structure a 400, and nothing is written", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({
        nodes: [startNode, hello],
        edges: [{ id: "e1", source: "start", target: "hello", kind: "next" }]
      })

      const nodeTaken = yield* failsWith(flow.createNode(hello), "FlowNodeIdTaken")
      expect(nodeTaken.nodeId).toBe("hello")
      yield* failsWith(flow.createEdge({ id: "e1", source: "hello", target: "start", kind: "next" }), "FlowEdgeIdTaken")
      const toNowhere = yield* failsWith(
        flow.createEdge({ source: "hello", target: "ghost", kind: "next" }),
        "InvalidFlow"
      )
      expect(toNowhere.problems).toMatchObject([{ code: "unknown-edge-endpoint", nodeIds: ["ghost"] }])
      const noSubflow = yield* failsWith(
        flow.createNode({ type: "end", position: at(0, 0), subflow: "nope", data: {} }),
        "InvalidFlow"
      )
      expect(noSubflow.problems[0]!.code).toBe("unknown-subflow")
      const patchNowhere = yield* failsWith(flow.updateNode("ghost", { label: "x" }), "FlowNodeNotFound")
      expect(patchNowhere.nodeId).toBe("ghost")
      yield* failsWith(flow.deleteNode("ghost"), "FlowNodeNotFound")

      // Raw: the domain schemas refuse these on the client side (an unknown field, a message
      // without text, a node id over 64 characters); the server's 400 is what is tested.
      const unknownField = yield* send(owner, "post", `${url}/nodes`, { ...hello, id: "x", colour: "red" })
      expect(unknownField.status).toBe(400)
      const badData = yield* send(owner, "post", `${url}/nodes`, { type: "message", position: at(0, 0), data: {} })
      expect(badData.status).toBe(400)
      const badId = yield* send(owner, "patch", `${url}/nodes/${"x".repeat(65)}`, { label: "x" })
      expect(badId.status).toBe(400)

      const current = yield* flow.get()
      expect(current.revision).toBe(2)
      expect(current.nodes).toHaveLength(2)
      expect(current.edges).toHaveLength(1)
    }))

  it.effect("a flow at its size limit refuses another node (400) and a repair that would add one (400)", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      const full = Array.from({ length: 1000 }, (_, index) => ({
        id: `m${index}`,
        type: "message",
        position: at(index, 0),
        data: { text: "Hi" }
      }))
      yield* flow.replace({ nodes: full, edges: [] })
      const another = yield* failsWith(
        flow.createNode({ type: "end", position: at(0, 0), data: {} }),
        "InvalidFlow"
      )
      expect(another.message).toBe("A flow holds at most 1000 nodes")
      yield* failsWith(flow.repairNode({ nodeId: "m0" }), "ValidationFailed")
      expect(yield* flow.get()).toMatchObject({ revision: 2, edges: [] })
    }))

  it.effect("a stale If-Match is a 409 on every write, and the current one passes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({
        nodes: [startNode, hello],
        edges: [{ id: "e1", source: "start", target: "hello", kind: "next" }]
      })
      const stale = ifMatch(1)
      const writes = [
        failureOf(flow.createNode({ type: "end", position: at(0, 0), data: {} }, stale)),
        failureOf(flow.updateNode("hello", { label: "x" }, stale)),
        failureOf(flow.deleteNode("hello", stale)),
        failureOf(flow.createEdge({ source: "hello", target: "start", kind: "next" }, stale)),
        failureOf(flow.deleteEdge("e1", stale)),
        failureOf(flow.repairNode({ nodeId: "hello" }, stale)),
        failureOf(flow.repairNode({ nodeId: "hello", revision: 1 }))
      ]
      for (const write of writes) {
        expect(yield* write).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 2 })
      }
      const current = yield* flow.updateNode("hello", { label: "x" }, ifMatch(2))
      expect(current.revision).toBe(3)
      yield* failsWith(flow.repairNode({ nodeId: "hello", revision: 2 }, ifMatch(3)), "ValidationFailed")
    }))

  it.effect("two writers from one revision: exactly one wins", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({ nodes: [startNode], edges: [] })
      const results = yield* Effect.all(
        Array.from(
          { length: 6 },
          (_, index) => Effect.either(flow.createNode({ type: "end", position: at(index, 0), data: {} }, ifMatch(2)))
        ),
        { concurrency: "unbounded" }
      )
      expect(results.map((result) => Either.isRight(result) ? "created" : result.left._tag).sort()).toEqual([
        "RevisionConflict",
        "RevisionConflict",
        "RevisionConflict",
        "RevisionConflict",
        "RevisionConflict",
        "created"
      ])
      expect((yield* flow.get()).nodes).toHaveLength(2)
    }))

  it.effect("repair-node fixes one node, answers the diff and the revision, and is idempotent", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const url = base(agentId)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({
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
      const repaired = yield* flow.repairNode({ nodeId: "ask" }, ifMatch(2))
      expect(repaired).toMatchObject({
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
      expect(repaired.fixed.map((f) => f.code).sort()).toEqual([
        "dangling-edge",
        "dead-end",
        "question-without-fallback"
      ])
      const again = yield* flow.repairNode({ nodeId: "ask", revision: 3 })
      expect(again).toMatchObject({ revision: 3, changed: false, fixed: [], remaining: [] })
      expect((yield* flow.get()).revision).toBe(3)
      yield* failsWith(flow.repairNode({ nodeId: "ghost" }), "FlowNodeNotFound")
      // Raw: RepairNodeRequest refuses an unknown field on the client side; the server's 400 is what is tested.
      const extra = yield* send(owner, "post", `${url}/repair-node`, { nodeId: "ask", force: true })
      expect(extra.status).toBe(400)
    }))

  /** Each node and edge edit and a repair, through `flow`: the tag of the error each failed with. */
  const everyEdit = (flow: FlowOf) =>
    Effect.map(
      Effect.all([
        failureOf(flow.createNode({ type: "end", position: at(0, 0), data: {} })),
        failureOf(flow.updateNode("hello", { label: "x" })),
        failureOf(flow.deleteNode("hello")),
        failureOf(flow.createEdge({ source: "start", target: "hello", kind: "next" })),
        failureOf(flow.deleteEdge("e1")),
        failureOf(flow.repairNode({ nodeId: "hello" })),
        failureOf(flow.repairFlow({}))
      ]),
      (errors) => errors.map((error) => error._tag)
    )

  it.effect("POST /flow/repair makes an imported decision tree deployable in one revision, and is idempotent", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const imported = yield* client.imports.importDrawio({
        payload: Schema.decodeUnknownSync(DrawioImportRequest)({
          xml: readFileSync(corpus("drawio/templates__other__decision_tree_1.xml"), "utf8"),
          target: { kind: "new", name: "Decision tree" }
        })
      })
      const { agentId, revision } = imported
      if (agentId === null || revision === null) throw new Error(`the import ${imported.status}: no draft`)
      const url = base(agentId)
      const flow = yield* flowOf(owner, agentId)
      const deploy = client.deployments.createForAgent({
        path: { agent_id: agentId },
        payload: Schema.decodeUnknownSync(DeploymentCreate)({ allowedOrigins: ["*"] })
      })
      yield* failsWith(deploy, "DeploymentRefused")
      const before = yield* flow.analysis()
      expect(before.deployable).toBe(false)
      const original = yield* flow.get()

      yield* failsWith(flow.repairFlow({}, ifMatch(revision - 1)), "RevisionConflict")
      // Raw: RepairFlowRequest refuses an unknown field on the client side; the server's 400 is what is tested.
      const extra = yield* send(owner, "post", `${url}/repair`, { force: true })
      expect(extra.status).toBe(400)

      const repaired = yield* flow.repairFlow({ revision })
      expect(repaired).toMatchObject({ revision: revision + 1, changed: true, deployable: true })
      expect(repaired.diff.removedEdges).toEqual([])
      expect(repaired.fixed.length).toBe(before.findings.filter((f) => f.repairable).length)
      expect(repaired.remaining.filter((f) => f.severity === "error")).toEqual([])
      const current = yield* flow.get()
      expect(current.revision).toBe(revision + 1)
      // Every edge of the diagram is still there, beside those the repair added.
      expect(current.edges).toHaveLength(original.edges.length + repaired.diff.addedEdges.length)
      const ids = new Set<string>(current.edges.map((e) => e.id))
      expect(original.edges.every((e) => ids.has(e.id))).toBe(true)
      const after = yield* flow.analysis()
      expect(after).toMatchObject({ deployable: true })
      expect(after.findings).toEqual(repaired.remaining)

      const again = yield* flow.repairFlow({})
      expect(again).toMatchObject({ revision: revision + 1, changed: false, fixed: [], deployable: true })
      yield* deploy
      const log = yield* client.audit.list({ urlParams: { limit: 100 } })
      const repairs = log.items.filter((record) => record.action === "flow.repaired")
      expect(repairs).toHaveLength(1)
      expect(repairs[0]!.summary).toMatchObject({
        after: { revision: revision + 1, fixed: repaired.fixed.length, removedEdges: 0 }
      })
    }))

  it.effect("viewers may not write; another workspace's flow is a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.replace({ nodes: [startNode, hello], edges: [] })
      const viewer = yield* join(owner, "viewer")
      const refused = yield* everyEdit(yield* flowOf(viewer, agentId, owner.workspaceId))
      expect(refused).toEqual(Array(7).fill("Forbidden"))

      const stranger = yield* signUp()
      const elsewhere = yield* everyEdit(yield* flowOf(stranger, agentId))
      expect(elsewhere).toEqual(Array(7).fill("AssistantNotFound"))
      expect((yield* flow.get()).revision).toBe(2)
    }))

  it.effect("each edit is audited with ids and sizes, never content", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const flow = yield* flowOf(owner, agentId)
      yield* flow.createNode(startNode)
      yield* flow.createNode(hello)
      yield* flow.createEdge({ id: "e1", source: "start", target: "hello", kind: "next" })
      yield* flow.repairNode({ nodeId: "hello" })
      yield* flow.deleteEdge("e1")
      yield* flow.deleteNode("hello")
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
      // Raw: a wire check; the audit log as served (every field, before any decoding) holds no node text.
      const raw = yield* exchange(as(HttpClientRequest.get("/v1/audit?limit=100"), owner))
      expect(raw.text).not.toContain("Hello")
    }))
})
