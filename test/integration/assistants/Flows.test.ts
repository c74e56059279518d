/**
 * An Assistant's draft flow through the typed client, on the real server and
 * database: read and replace, with the draft's revision (If-Match or the
 * body, stale is a 409, two writers from one revision never both win), the
 * structural checks, the round trip of what was written, workspace isolation,
 * capabilities, the audit trail. Raw requests stay for the wire checks and
 * the bodies the typed client would not send.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { AssistantCreate, type AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { Flow, FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { Revision } from "../../../src/domain/Revision.js"
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

const getFlow = (account: TestAccount, agentId: string) =>
  exchange(as(HttpClientRequest.get(flowUrl(agentId)), account))

/** `GET /flow` through the typed client (in `workspaceId` when given). */
const readFlow = (account: TestAccount, agentId: AssistantId, workspaceId?: string) =>
  Effect.flatMap(clientOf(account, workspaceId), (client) => client.flows.getFlow({ path: { agent_id: agentId } }))

/** `PUT /flow` through the typed client: `graph` decoded with `FlowReplace`, based on `ifMatch` when given. */
const replace = (account: TestAccount, agentId: AssistantId, graph: unknown, ifMatch?: number) =>
  Effect.flatMap(clientOf(account), (client) =>
    client.flows.replaceFlow({
      path: { agent_id: agentId },
      headers: ifMatch === undefined ? {} : { "if-match": Revision.make(ifMatch) },
      payload: Schema.decodeUnknownSync(FlowReplace)(graph)
    }))

/** A node's data, whatever its type. */
const dataOf = (node: { readonly data: object } | undefined) => node?.data as Record<string, unknown>

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
      const empty = yield* readFlow(owner, agentId)
      expect(empty).toMatchObject({ agentId, nodes: [], edges: [], subflows: [], revision: 1 })
      // Raw, a wire check: the body as served has no workspaceId (the typed client would decode it away).
      const served = yield* getFlow(owner, agentId)
      expect(served.status).toBe(200)
      expect(served.json.workspaceId).toBeUndefined()

      // Raw: a graph without the defaults, which the typed client's schema would fill before sending.
      const written = yield* put(owner, agentId, supportGraph)
      expect(written.status).toBe(200)
      expect(written.json).toMatchObject({ agentId, revision: 2, ...withDefaults })
      const read = yield* readFlow(owner, agentId)
      expect(read).toEqual(Schema.decodeUnknownSync(Flow.json)(written.json))
      expect(dataOf(read.nodes[3]).slotVariables).toEqual({ order_id: "the_order_id" })
      expect(dataOf(read.nodes[4]).value).toEqual({
        priority_level: 2,
        tags: ["vip"],
        nested_key: { snake_case: true }
      })

      // Through the typed client too.
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
      // Raw: sub-flows may be left out (none), which the typed client's schema would fill before sending.
      const bare = yield* put(owner, agentId, { nodes: [], edges: [] })
      expect(bare.json).toMatchObject({ nodes: [], edges: [], subflows: [], revision: 4 })
      expect((yield* client.assistants.get({ path: { agent_id: agentId } })).revision).toBe(4)
    }))

  it.effect("the base revision comes from If-Match or the body; stale is a 409, disagreeing is a 400", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const graph = { nodes: [supportGraph.nodes[0]], edges: [] }
      expect((yield* replace(owner, agentId, graph, 1)).revision).toBe(2)
      expect((yield* replace(owner, agentId, { ...graph, revision: 2 })).revision).toBe(3)
      expect((yield* replace(owner, agentId, { ...graph, revision: 3 }, 3)).revision).toBe(4)

      const stale = yield* failureOf(replace(owner, agentId, graph, 2))
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 2, actual: 4 })
      const staleBody = yield* failureOf(replace(owner, agentId, { ...graph, revision: 1 }))
      expect(staleBody).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 4 })
      const ahead = yield* failureOf(replace(owner, agentId, graph, 9))
      expect(ahead).toMatchObject({ _tag: "RevisionConflict", expected: 9, actual: 4 })

      const disagree = yield* failureOf(replace(owner, agentId, { ...graph, revision: 4 }, 3))
      expect(disagree).toMatchObject({ _tag: "ValidationFailed", fields: ["revision"] })
      // Raw: an If-Match the typed client refuses to send; the exact status of the decode error.
      const notANumber = yield* put(owner, agentId, graph, { "if-match": "\"four\"" })
      expect(notANumber.status).toBe(400)
      expect((yield* readFlow(owner, agentId)).revision).toBe(4)

      // Intent writes move the same revision: a flow read before them is stale after.
      const client = yield* clientOf(owner)
      yield* client.assistants.createIntent({
        path: { agent_id: agentId },
        payload: { name: "greet", description: "", utterances: ["hi"], slots: [] }
      })
      const afterIntent = yield* failureOf(replace(owner, agentId, graph, 4))
      expect(afterIntent).toMatchObject({ _tag: "RevisionConflict", expected: 4, actual: 5 })

      // Raw: the entity-tag form standard clients send is the same revision.
      expect((yield* put(owner, agentId, graph, { "if-match": "\"4\"" })).status).toBe(409)
      expect((yield* put(owner, agentId, graph, { "if-match": "W/\"5\"" })).status).toBe(200)
      expect((yield* readFlow(owner, agentId)).revision).toBe(6)
    }))

  it.effect("of writers from the same revision, exactly one wins; the others get a 409", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const writers = Array.from({ length: 6 }, (_, i) => ({
        nodes: [{ id: `start_${i}`, type: "start", position: at(i, i), data: {} }],
        edges: []
      }))
      const answers = yield* Effect.forEach(writers, (graph) => Effect.either(replace(owner, agentId, graph, 1)), {
        concurrency: "unbounded"
      })
      const winners = answers.filter(Either.isRight).map((answer) => answer.right)
      expect(winners).toHaveLength(1)
      expect(answers.filter(Either.isLeft).map((answer) => answer.left)).toEqual(
        Array.from({ length: 5 }, () => expect.objectContaining({ _tag: "RevisionConflict", expected: 1, actual: 2 }))
      )
      const stored = yield* readFlow(owner, agentId)
      expect(stored).toEqual(winners[0])
      expect(stored.revision).toBe(2)
      // Without a base revision, writers take turns and every one lands.
      const blind = yield* Effect.forEach(writers, (graph) => Effect.either(replace(owner, agentId, graph)), {
        concurrency: "unbounded"
      })
      expect(blind.map(Either.isRight)).toEqual(writers.map(() => true))
      expect(new Set(blind.filter(Either.isRight).map((answer) => answer.right.revision))).toEqual(
        new Set([3, 4, 5, 6, 7, 8])
      )
    }))

  it.effect("a graph that is not well-formed is refused with every problem, and nothing changes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const start = supportGraph.nodes[0]!
      const refused = yield* failureOf(replace(owner, agentId, {
        nodes: [start, { ...start, position: at(5, 5) }, { ...supportGraph.nodes[1], subflow: "nowhere" }],
        edges: [
          { id: "e1", source: "start", target: "ghost", kind: "next" },
          { id: "e1", source: "start", target: "hello", kind: "next" }
        ],
        subflows: [
          { id: "s", name: "One", entryNodeId: "start" },
          { id: "s", name: "Two", entryNodeId: "start" }
        ]
      }))
      expect(refused._tag).toBe("InvalidFlow")
      const problems = refused._tag === "InvalidFlow" ? refused.problems : []
      expect(problems.map((p) => [p.code, p.nodeIds, p.edgeIds])).toEqual([
        ["duplicate-node-id", ["start"], []],
        ["duplicate-edge-id", [], ["e1"]],
        ["duplicate-subflow-id", [], []],
        ["unknown-edge-endpoint", ["ghost"], ["e1"]],
        ["unknown-subflow", ["hello"], []]
      ])
      const flow = yield* readFlow(owner, agentId)
      expect(flow).toMatchObject({ nodes: [], revision: 1 })
    }))

  it.effect("bodies are strict: unknown fields and malformed nodes are a 400", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const start = supportGraph.nodes[0]!
      // Raw: bodies the typed client refuses to send; the exact status and tag of the decode error.
      const answers = [
        yield* put(owner, agentId, { nodes: [], edges: [], layout: "auto" }),
        yield* put(owner, agentId, { nodes: [{ ...start, colour: "red" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [{ ...start, type: "teleport" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [{ ...start, id: "has space" }], edges: [] }),
        yield* put(owner, agentId, { nodes: [] }),
        yield* put(owner, agentId, { nodes: [], edges: [], revision: 0 })
      ]
      expect(answers.map((res) => [res.status, res.json._tag])).toEqual(answers.map(() => [400, "HttpApiDecodeError"]))
      expect((yield* readFlow(owner, agentId)).revision).toBe(1)
    }))

  it.effect("another workspace's flow is a 404, read or written; a viewer reads but may not write", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      yield* replace(owner, agentId, supportGraph)
      const stranger = yield* signUp()
      const read = yield* failureOf(readFlow(stranger, agentId))
      expect(read).toMatchObject({ _tag: "AssistantNotFound", agentId })
      const write = yield* failureOf(replace(stranger, agentId, { nodes: [], edges: [] }))
      expect(write).toMatchObject({ _tag: "AssistantNotFound", agentId })
      const stale = yield* failureOf(replace(stranger, agentId, { nodes: [], edges: [] }, 1))
      expect(stale._tag).toBe("AssistantNotFound")

      const viewer = yield* join(owner, "viewer")
      const viewed = yield* readFlow(viewer, agentId, owner.workspaceId)
      expect(viewed.nodes).toHaveLength(supportGraph.nodes.length)
      const client = yield* clientOf(viewer, owner.workspaceId)
      const refused = yield* failureOf(client.flows.replaceFlow({
        path: { agent_id: viewed.agentId },
        headers: {},
        payload: Schema.decodeUnknownSync(FlowReplace)({ nodes: [], edges: [] })
      }))
      expect(refused).toMatchObject({ _tag: "Forbidden", capability: "assistant.write" })
      expect(yield* readFlow(owner, agentId)).toEqual(viewed)

      // A deleted Assistant takes its flow along.
      yield* (yield* clientOf(owner)).assistants.delete({ path: { agent_id: agentId } })
      expect((yield* failureOf(readFlow(owner, agentId)))._tag).toBe("AssistantNotFound")
    }))

  it.effect("each replacement is in the audit log with the sizes of the graph, never the graph", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const client = yield* clientOf(owner)
      // With the response it came in: its x-trace-id header is the audit record's trace.
      const [, written] = yield* client.flows.replaceFlow({
        path: { agent_id: agentId },
        headers: {},
        payload: Schema.decodeUnknownSync(FlowReplace)(supportGraph),
        withResponse: true
      })
      yield* replace(owner, agentId, { nodes: [supportGraph.nodes[0]], edges: [] }, 2)
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
      // Raw, a wire check: the whole log's text, not only the fields the typed client decodes.
      const raw = yield* exchange(as(HttpClientRequest.get("/v1/audit?limit=100"), owner))
      expect(raw.text).not.toContain("Hi {{name}}")
    }))
})
