/**
 * An Assistant's draft flow over real HTTP and the real database: read and
 * replace, with the draft's revision (If-Match or the body, stale is a 409,
 * two writers from one revision never both win), the structural checks, the
 * round trip of what was written, workspace isolation, capabilities, the
 * audit trail.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const at = (x: number, y: number) => ({ x, y })

/** A graph with one node of most kinds, and keys of the user's choosing (with underscores) in its data. */
const supportGraph = {
  nodes: [
    { id: "start", type: "start", position: at(0, 0), data: {} },
    { id: "hello", type: "message", label: "Greeting", position: at(0, 100), data: { text: "Hi {{name}}!" } },
    {
      id: "ask_email",
      type: "question",
      position: at(0, 200),
      data: { prompt: "Your email?", variable: "email", validation: { kind: "email" } }
    },
    {
      id: "route",
      type: "intent-router",
      position: at(0, 300),
      data: { intents: ["order_status", "refund"], slotVariables: { order_id: "the_order_id" } }
    },
    {
      id: "remember",
      type: "set-variable",
      position: at(200, 300),
      data: { variable: "ticket", value: { priority_level: 2, tags: ["vip"], nested_key: { snake_case: true } } }
    },
    {
      id: "check",
      type: "condition",
      position: at(0, 400),
      data: { cases: [{ key: "vip", expression: "vars.ticket.priority_level > 1" }] }
    },
    {
      id: "to_billing",
      type: "jump",
      position: at(0, 500),
      data: { target: { kind: "subflow", subflowId: "billing" } }
    },
    { id: "bill", type: "message", subflow: "billing", position: at(400, 0), data: { text: "Billing here" } },
    { id: "bye", type: "end", position: at(0, 600), data: { outcome: "resolved" } }
  ],
  edges: [
    { id: "e1", source: "start", target: "hello", kind: "next" },
    { id: "e2", source: "hello", target: "ask_email", kind: "next" },
    { id: "e3", source: "ask_email", target: "route", kind: "answered", label: "got it" },
    { id: "e4", source: "ask_email", target: "bye", kind: "fallback" },
    { id: "e5", source: "route", target: "remember", kind: "intent", intent: "order_status" },
    { id: "e6", source: "route", target: "bye", kind: "fallback" },
    { id: "e7", source: "remember", target: "check", kind: "next" },
    { id: "e8", source: "check", target: "to_billing", kind: "case", case: "vip" },
    { id: "e9", source: "check", target: "bye", kind: "fallback" }
  ],
  subflows: [{ id: "billing", name: "Billing", entryNodeId: "bill" }]
}

/** The same graph as the server answers it: every default filled in. */
const withDefaults = {
  ...supportGraph,
  nodes: supportGraph.nodes.map((node) =>
    node.type === "message"
      ? { ...node, data: { ...node.data, buttons: [] } }
      : node.type === "question"
      ? { ...node, data: { ...node.data, maxAttempts: 3 } }
      : node
  )
}

const flowUrl = (agentId: string) => `/v1/agents/${agentId}/flow`

const put = (account: TestAccount, agentId: string, body: unknown, headers: Record<string, string> = {}) =>
  exchange(as(
    HttpClientRequest.put(flowUrl(agentId)).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyUnsafeJson(body)
    ),
    account
  ))

const getFlow = (account: TestAccount, agentId: string, workspaceId?: string) =>
  exchange(as(HttpClientRequest.get(flowUrl(agentId)), {
    ...account,
    ...(workspaceId === undefined ? {} : { workspaceId })
  }))

/** A new Assistant of the account's workspace; its id. */
const newAssistant = (account: TestAccount, name = "Flows") =>
  Effect.flatMap(
    clientOf(account),
    (client) =>
      Effect.map(client.assistants.create({ payload: AssistantCreate.make({ name }) }), (created) => created.id)
  )

layer(testServer(), { excludeTestServices: true })("flows", (it) => {
  it.effect("what is written is what is read, defaults filled, at the next revision", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const empty = yield* getFlow(owner, agentId)
      expect(empty.status).toBe(200)
      expect(empty.json).toMatchObject({ agentId, nodes: [], edges: [], subflows: [], revision: 1 })
      expect(empty.json.workspaceId).toBeUndefined()

      const written = yield* put(owner, agentId, supportGraph)
      expect(written.status).toBe(200)
      expect(written.json).toMatchObject({ agentId, revision: 2, ...withDefaults })
      const read = yield* getFlow(owner, agentId)
      expect(read.json).toEqual(written.json)
      expect(read.json.nodes[3].data.slotVariables).toEqual({ order_id: "the_order_id" })
      expect(read.json.nodes[4].data.value).toEqual({
        priority_level: 2,
        tags: ["vip"],
        nested_key: { snake_case: true }
      })

      // Through the typed client too; sub-flows may be left out (none).
      const client = yield* clientOf(owner)
      const payload = Schema.decodeUnknownSync(FlowReplace)({ nodes: supportGraph.nodes.slice(0, 2), edges: [] })
      const replaced = yield* client.flows.replaceFlow({
        path: { agent_id: agentId },
        headers: {},
        payload: {
          ...payload,
          subflows: []
        }
      })
      expect(replaced.revision).toBe(3)
      expect(replaced.nodes).toHaveLength(2)
      expect(yield* client.flows.getFlow({ path: { agent_id: agentId } })).toEqual(replaced)
      const bare = yield* put(owner, agentId, { nodes: [], edges: [] })
      expect(bare.json).toMatchObject({ nodes: [], edges: [], subflows: [], revision: 4 })
      expect((yield* client.assistants.get({ path: { agent_id: agentId } })).revision).toBe(4)
    }))

  it.effect("the base revision comes from If-Match or the body; stale is a 409, disagreeing is a 400", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const graph = { nodes: [supportGraph.nodes[0]], edges: [] }
      expect((yield* put(owner, agentId, graph, { "if-match": "1" })).json.revision).toBe(2)
      expect((yield* put(owner, agentId, { ...graph, revision: 2 })).json.revision).toBe(3)
      expect((yield* put(owner, agentId, { ...graph, revision: 3 }, { "if-match": "3" })).json.revision).toBe(4)

      const stale = yield* put(owner, agentId, graph, { "if-match": "2" })
      expect(stale.status).toBe(409)
      expect(stale.json).toMatchObject({ _tag: "RevisionConflict", expected: 2, actual: 4 })
      const staleBody = yield* put(owner, agentId, { ...graph, revision: 1 })
      expect(staleBody.json).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 4 })
      const ahead = yield* put(owner, agentId, graph, { "if-match": "9" })
      expect(ahead.json).toMatchObject({ _tag: "RevisionConflict", expected: 9, actual: 4 })

      const disagree = yield* put(owner, agentId, { ...graph, revision: 4 }, { "if-match": "3" })
      expect(disagree.status).toBe(400)
      expect(disagree.json).toMatchObject({ _tag: "ValidationFailed", fields: ["revision"] })
      const notANumber = yield* put(owner, agentId, graph, { "if-match": "\"4\"" })
      expect(notANumber.status).toBe(400)
      expect((yield* getFlow(owner, agentId)).json.revision).toBe(4)

      // Intent writes move the same revision: a flow read before them is stale after.
      const client = yield* clientOf(owner)
      yield* client.assistants.createIntent({
        path: { agent_id: agentId },
        payload: { name: "greet", description: "", utterances: ["hi"], slots: [] }
      })
      const afterIntent = yield* put(owner, agentId, graph, { "if-match": "4" })
      expect(afterIntent.json).toMatchObject({ _tag: "RevisionConflict", expected: 4, actual: 5 })
    }))

  it.effect("of writers from the same revision, exactly one wins; the others get a 409", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const writers = Array.from({ length: 6 }, (_, i) => ({
        nodes: [{ id: `start_${i}`, type: "start", position: at(i, i), data: {} }],
        edges: []
      }))
      const answers = yield* Effect.forEach(writers, (graph) => put(owner, agentId, graph, { "if-match": "1" }), {
        concurrency: "unbounded"
      })
      const winners = answers.filter((res) => res.status === 200)
      expect(winners).toHaveLength(1)
      expect(answers.filter((res) => res.status === 409).map((res) => res.json)).toEqual(
        Array.from({ length: 5 }, () => expect.objectContaining({ _tag: "RevisionConflict", expected: 1, actual: 2 }))
      )
      const stored = yield* getFlow(owner, agentId)
      expect(stored.json).toEqual(winners[0]!.json)
      expect(stored.json.revision).toBe(2)
      // Without a base revision, writers take turns and every one lands.
      const blind = yield* Effect.forEach(writers, (graph) => put(owner, agentId, graph), { concurrency: "unbounded" })
      expect(blind.map((res) => res.status)).toEqual(writers.map(() => 200))
      expect(new Set(blind.map((res) => res.json.revision))).toEqual(new Set([3, 4, 5, 6, 7, 8]))
    }))

  it.effect("a graph that is not well-formed is refused with every problem, and nothing changes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const start = supportGraph.nodes[0]!
      const refused = yield* put(owner, agentId, {
        nodes: [start, { ...start, position: at(5, 5) }, { ...supportGraph.nodes[1], subflow: "nowhere" }],
        edges: [
          { id: "e1", source: "start", target: "ghost", kind: "next" },
          { id: "e1", source: "start", target: "hello", kind: "next" }
        ],
        subflows: [
          { id: "s", name: "One", entryNodeId: "start" },
          { id: "s", name: "Two", entryNodeId: "start" }
        ]
      })
      expect(refused.status).toBe(400)
      expect(refused.json._tag).toBe("InvalidFlow")
      expect(refused.json.problems.map((p: { code: string; nodeIds: Array<string>; edgeIds: Array<string> }) => [
        p.code,
        p.nodeIds,
        p.edgeIds
      ])).toEqual([
        ["duplicate-node-id", ["start"], []],
        ["duplicate-edge-id", [], ["e1"]],
        ["duplicate-subflow-id", [], []],
        ["unknown-edge-endpoint", ["ghost"], ["e1"]],
        ["unknown-subflow", ["hello"], []]
      ])
      const flow = yield* getFlow(owner, agentId)
      expect(flow.json).toMatchObject({ nodes: [], revision: 1 })
    }))

  it.effect("bodies are strict: unknown fields and malformed nodes are a 400", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const start = supportGraph.nodes[0]!
      const answers = [
        yield* put(owner, agentId, { nodes: [], edges: [], layout: "auto" }),
        yield* put(owner, agentId, { nodes: [{ ...start, colour: "red" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [{ ...start, type: "teleport" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [{ ...start, id: "has space" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [] }),
        yield* put(owner, agentId, { nodes: [], edges: [], revision: 0 })
      ]
      expect(answers.map((res) => [res.status, res.json._tag])).toEqual(answers.map(() => [400, "HttpApiDecodeError"]))
      expect((yield* getFlow(owner, agentId)).json.revision).toBe(1)
    }))

  it.effect("another workspace's flow is a 404, read or written; a viewer reads but may not write", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      yield* put(owner, agentId, supportGraph)
      const stranger = yield* signUp()
      const read = yield* getFlow(stranger, agentId)
      expect(read.status).toBe(404)
      expect(read.json).toMatchObject({ _tag: "AssistantNotFound", agentId })
      const write = yield* put(stranger, agentId, { nodes: [], edges: [] })
      expect(write.json).toMatchObject({ _tag: "AssistantNotFound", agentId })
      const stale = yield* put(stranger, agentId, { nodes: [], edges: [] }, { "if-match": "1" })
      expect(stale.json._tag).toBe("AssistantNotFound")

      const viewer = yield* join(owner, "viewer")
      const viewed = yield* getFlow(viewer, agentId, owner.workspaceId)
      expect(viewed.status).toBe(200)
      expect(viewed.json.nodes).toHaveLength(supportGraph.nodes.length)
      const client = yield* clientOf(viewer, owner.workspaceId)
      const refused = yield* failureOf(client.flows.replaceFlow({
        path: { agent_id: viewed.json.agentId },
        headers: {},
        payload: Schema.decodeUnknownSync(FlowReplace)({ nodes: [], edges: [] })
      }))
      expect(refused).toMatchObject({ _tag: "Forbidden", capability: "assistant.write" })
      expect((yield* getFlow(owner, agentId)).json).toEqual(viewed.json)

      // A deleted Assistant takes its flow along.
      yield* exchange(as(HttpClientRequest.del(`/v1/agents/${agentId}`), owner))
      expect((yield* getFlow(owner, agentId)).json._tag).toBe("AssistantNotFound")
    }))

  it.effect("each replacement is in the audit log with the sizes of the graph, never the graph", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const written = yield* put(owner, agentId, supportGraph)
      yield* put(owner, agentId, { nodes: [supportGraph.nodes[0]], edges: [] }, { "if-match": "2" })
      const client = yield* clientOf(owner)
      const log = yield* client.audit.list({ urlParams: { action: "flow.replaced" } })
      expect(log.items.map((record) => [record.resourceType, record.resourceId, record.summary])).toEqual([
        ["flow", agentId, {
          before: { revision: 2, nodes: 9, edges: 9, subflows: 1 },
          after: { revision: 3, nodes: 1, edges: 0, subflows: 0 }
        }],
        ["flow", agentId, {
          before: { revision: 1, nodes: 0, edges: 0, subflows: 0 },
          after: { revision: 2, nodes: 9, edges: 9, subflows: 1 }
        }]
      ])
      expect(log.items[1]!.traceId).toBe(written.headers["x-trace-id"])
      const raw = yield* exchange(as(HttpClientRequest.get("/v1/audit?limit=100"), owner))
      expect(raw.text).not.toContain("Hi {{name}}")
    }))
})
