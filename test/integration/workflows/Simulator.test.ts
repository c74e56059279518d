/**
 * The workflow simulator over HTTP against the real database, on the
 * embedded cluster's `WorkflowSimSession` entity: a conversational workflow
 * run turn by turn with the nodes each turn passed; a JSON payload turn, an
 * approval wait and a duration skipped; a turn of the wrong kind refused with
 * nothing changed; the same Idempotency-Key answered from storage with its
 * HTTP call made once (a loopback echo server counts it) and another body a
 * 409; an ended session refusing turns; draft edits not reaching a running
 * session; the node-execution limit; history pages; roles; another
 * workspace; bad input as typed 4xx.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { WorkflowId, WorkflowSimSessionId } from "../../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../../src/domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../../src/domain/workflows/WorkflowGraph.js"
import type { WorkspaceToolId } from "../../../src/domain/workspace/Ids.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoServer } from "../../support/EchoServer.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

type Client = Effect.Effect.Success<ReturnType<typeof clientOf>>

let count = 0
const fresh = (label: string) => `${label}_${process.pid}_${++count}`
const at = (x: number) => ({ x, y: 0 })
const node = (id: string, type: string, data: Record<string, unknown> = {}) => ({ id, type, position: at(0), data })
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${sourceHandle ?? "out"}-${target}`,
  source,
  target,
  ...(sourceHandle === undefined ? {} : { sourceHandle })
})
const trigger = (inputs: ReadonlyArray<Record<string, unknown>> = []) =>
  node("start", "trigger", { kind: "manual", inputs })
const say = (id: string, template: string) => node(id, "output", { format: "text", template })
const graphOf = (nodes: ReadonlyArray<unknown>, edges: ReadonlyArray<unknown>) =>
  Schema.decodeUnknownSync(WorkflowGraph)({ nodes, edges })

/** A workflow whose draft is `nodes` and `edges` (never published: the simulator runs drafts); its id. */
const draft = (client: Client, nodes: ReadonlyArray<unknown>, edges: ReadonlyArray<unknown>) =>
  Effect.map(
    client.workflows.create({
      payload: Schema.decodeUnknownSync(WorkflowCreate)({ name: "Simulated", graph: graphOf(nodes, edges) })
    }),
    (workflow) => workflow.id
  )

/** trigger → greeting → input (a name) → condition → one of two replies. */
const conversation = {
  nodes: [
    trigger([{ name: "shop", type: "string" }]),
    say("hi", "Welcome to {{ input.shop }}!"),
    node("ask", "input", { prompt: "What is your name?", variable: "name" }),
    node("known", "condition", { expression: "vars.name = \"Ann\"" }),
    say("again", "Hello again, {{ vars.name }}"),
    say("new", "Nice to meet you, {{ vars.name }}")
  ],
  edges: [
    edge("start", "hi"),
    edge("hi", "ask"),
    edge("ask", "known"),
    edge("known", "again", "true"),
    edge("known", "new", "false")
  ]
}

const texts = (outputs: ReadonlyArray<{ readonly format: string; readonly text?: string }>) =>
  outputs.map((output) => output.text)
const passed = (trace: ReadonlyArray<{ readonly nodeId: string; readonly status: string }>) =>
  trace.map((step) => `${step.nodeId}:${step.status}`)

const start = (client: Client, id: WorkflowId, input: Record<string, unknown> = {}) =>
  client.workflowSimulator.startSession({ path: { id }, payload: { input: input as never } })
const turn = (client: Client, id: WorkflowSimSessionId, payload: unknown, key?: string) =>
  client.workflowSimulator.sendTurn({
    path: { id },
    headers: key === undefined ? {} : { "idempotency-key": key },
    payload: payload as never
  })
const sessionsOf = (client: Client, id: WorkflowId, urlParams: { limit?: number; offset?: number } = {}) =>
  client.workflowSimulator.listSessions({ path: { id }, urlParams })

/** A raw JSON request as `account` (for what the typed client would not send). */
const raw = (account: TestAccount, method: "GET" | "POST", url: string, body?: string) =>
  exchange(
    as(method === "GET" ? HttpClientRequest.get(url) : postRaw(url, body ?? "{}"), {
      token: account.token,
      address: account.address
    })
  )

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true, timeout: 120_000 })(
  "Workflow simulator",
  (it) => {
    it.effect("a conversation runs turn by turn; each turn shows the nodes it passed with their outputs", () =>
      Effect.gen(function*() {
        const client = yield* clientOf(yield* signUp())
        const id = yield* draft(client, conversation.nodes, conversation.edges)

        const started = yield* start(client, id, { shop: "Acme" })
        expect(started.session).toMatchObject({ workflowId: id, revision: 1, status: "waiting-input", turnCount: 0 })
        expect(started.session.input).toEqual({ shop: "Acme" })
        expect(started.session.endedAt).toBeNull()
        const opening = started.turn
        expect(opening).toMatchObject({ sessionId: started.session.id, turn: 0, status: "waiting-input", error: null })
        expect(texts(opening.outputs)).toEqual(["Welcome to Acme!", "What is your name?"])
        expect(passed(opening.trace)).toEqual(["start:succeeded", "hi:succeeded", "ask:waiting"])
        expect(opening.trace[0]!.output).toEqual({ shop: "Acme" })
        expect(opening.trace[1]!.output).toBe("Welcome to Acme!")
        expect(opening.waitingFor).toEqual({
          kind: "input",
          nodeId: "ask",
          expect: "text",
          prompt: "What is your name?"
        })
        expect(opening.traceId).toMatch(/^[0-9a-f]{32}$/)

        const answered = yield* turn(client, started.session.id, { text: "Ann" })
        expect(answered).toMatchObject({ turn: 1, status: "completed", waitingFor: null, error: null })
        // Only what this turn ran: the replayed trigger, greeting and prompt are neither traced nor said again.
        expect(passed(answered.trace)).toEqual(["ask:succeeded", "known:succeeded", "again:succeeded"])
        expect(answered.trace.map((step) => step.output)).toEqual(["Ann", true, "Hello again, Ann"])
        expect(texts(answered.outputs)).toEqual(["Hello again, Ann"])
        expect(answered.variables).toEqual({ name: "Ann" })

        const other = yield* start(client, id, { shop: "Acme" })
        const stranger = yield* turn(client, other.session.id, { text: "Bob" })
        expect(texts(stranger.outputs)).toEqual(["Nice to meet you, Bob"])
        expect(passed(stranger.trace)).toEqual(["ask:succeeded", "known:succeeded", "new:succeeded"])
        expect(stranger.trace[1]!.output).toBe(false)

        // An answer an input cannot read is asked for again, and the session still waits.
        const counting = yield* draft(client, [
          trigger(),
          node("age", "input", { prompt: "Your age?", variable: "age", expect: "number" }),
          say("done", "{{ vars.age + 1 }} next year")
        ], [edge("start", "age"), edge("age", "done")])
        const asked = yield* start(client, counting)
        const unreadable = yield* turn(client, asked.session.id, { text: "old enough" })
        expect(unreadable).toMatchObject({ turn: 1, status: "waiting-input", waitingFor: { nodeId: "age" } })
        expect(passed(unreadable.trace)).toEqual(["age:failed", "age:waiting"])
        expect(texts(unreadable.outputs)).toEqual(["Your age?"])
        const readable = yield* turn(client, asked.session.id, { text: "41" })
        expect(texts(readable.outputs)).toEqual(["42 next year"])
        expect(readable.variables).toEqual({ age: 41 })
      }))

    it.effect("a JSON payload, an approval and a duration; a wrong kind of turn is a 400 and changes nothing", () =>
      Effect.gen(function*() {
        const account = yield* signUp()
        const client = yield* clientOf(account)
        const id = yield* draft(client, [
          trigger(),
          node("order", "input", { prompt: "Send the order", variable: "order", expect: "json" }),
          node("approve", "wait", { for: "approval", prompt: "Refund {{ vars.order.total }}?", outputVariable: "ok" }),
          node("later", "wait", { for: "duration", seconds: 86_400 }),
          node("yes", "output", { format: "json", expression: "{ \"refund\": vars.order.total }" }),
          say("no", "Refund declined")
        ], [
          edge("start", "order"),
          edge("order", "approve"),
          edge("approve", "later", "approved"),
          edge("approve", "no", "rejected"),
          edge("later", "yes")
        ])
        const started = yield* start(client, id)
        const sessionId = started.session.id
        expect(started.turn.waitingFor).toMatchObject({ kind: "input", nodeId: "order", expect: "json" })

        const textForJson = yield* Effect.flip(turn(client, sessionId, { text: "{\"total\": 42}" }))
        expect(textForJson).toMatchObject({ _tag: "ValidationFailed", fields: ["text"] })

        const ordered = yield* turn(client, sessionId, { payload: { total: 42 } })
        expect(ordered).toMatchObject({ turn: 1, status: "waiting-input", variables: { order: { total: 42 } } })
        expect(ordered.waitingFor).toEqual({ kind: "approval", nodeId: "approve", prompt: "Refund 42?" })
        expect(passed(ordered.trace)).toEqual(["order:succeeded", "approve:waiting"])
        expect(ordered.trace[0]!.output).toEqual({ total: 42 })
        // An approval's prompt is not said: it is shown in `waitingFor`.
        expect(ordered.outputs).toEqual([])

        const textForApproval = yield* Effect.flip(turn(client, sessionId, { text: "yes" }))
        expect(textForApproval).toMatchObject({ _tag: "ValidationFailed", fields: ["text"] })
        const notADecision = yield* Effect.flip(turn(client, sessionId, { payload: { yes: 1 } }))
        expect(notADecision).toMatchObject({ _tag: "ValidationFailed", fields: ["payload"] })
        const [listed] = (yield* sessionsOf(client, id)).items
        expect(listed).toMatchObject({ id: sessionId, status: "waiting-input", turnCount: 1 })

        const approved = yield* turn(client, sessionId, { payload: { approved: true, comment: "fine" } })
        expect(approved).toMatchObject({ turn: 2, status: "completed", waitingFor: null })
        expect(passed(approved.trace)).toEqual(["approve:succeeded", "later:succeeded", "yes:succeeded"])
        expect(approved.outputs).toEqual([{ nodeId: "yes", format: "json", value: { refund: 42 } }])
        expect(approved.variables).toEqual({ order: { total: 42 }, ok: { approved: true, comment: "fine" } })

        const ended = yield* Effect.flip(turn(client, sessionId, { payload: { approved: false } }))
        expect(ended).toMatchObject({ _tag: "WorkflowSimSessionEnded", sessionId, status: "completed" })
        const [done] = (yield* sessionsOf(client, id)).items
        expect(done).toMatchObject({ status: "completed", turnCount: 2 })
        expect(done!.endedAt).not.toBeNull()

        // An event's data is any JSON, `null` included.
        const parcel = yield* draft(client, [
          trigger(),
          node("arrived", "wait", { for: "event", event: "parcel.arrived", outputVariable: "parcel" }),
          node("out", "output", { format: "json", expression: "{ \"got\": vars.parcel = null }" })
        ], [edge("start", "arrived"), edge("arrived", "out")])
        const waiting = yield* start(client, parcel)
        expect(waiting.turn.waitingFor).toEqual({ kind: "event", nodeId: "arrived", event: "parcel.arrived" })
        const delivered = yield* turn(client, waiting.session.id, { payload: null })
        expect(delivered).toMatchObject({ status: "completed", variables: { parcel: null } })
        expect(delivered.outputs).toEqual([{ nodeId: "out", format: "json", value: { got: true } }])

        // A payload where a message is expected is refused the same way.
        const chat = yield* draft(client, conversation.nodes, conversation.edges)
        const chatting = yield* start(client, chat, { shop: "Acme" })
        const payloadForText = yield* Effect.flip(turn(client, chatting.session.id, { payload: "Ann" }))
        expect(payloadForText).toMatchObject({ _tag: "ValidationFailed", fields: ["payload"] })
        const still = yield* turn(client, chatting.session.id, { text: "Ann" })
        expect(still.turn).toBe(1)
      }))

    it.scoped("the same key answers the stored turn and calls out once; another body is a 409", () =>
      Effect.gen(function*() {
        const server = yield* echoServer
        const client = yield* clientOf(yield* signUp())
        const tool = yield* client.workspaceTools.create({
          payload: {
            name: fresh("order"),
            description: "Looks an order up",
            inputSchema: {
              type: "object",
              properties: { orderId: { type: "string", maxLength: 64 } },
              required: ["orderId"]
            },
            method: "GET",
            url: server.url("/echo?order={{input.orderId}}"),
            headers: {},
            query: {},
            body: null,
            timeoutSeconds: 5,
            maxResponseBytes: 65_536,
            allowedDomains: []
          } as never
        })
        const id = yield* draft(client, [
          trigger(),
          node("ask", "input", { prompt: "Which order?", variable: "orderId" }),
          node("fetch", "http", {
            toolId: tool.id as WorkspaceToolId,
            inputMapping: { orderId: "vars.orderId" },
            outputVariable: "found"
          }),
          say("status", "The lookup answered {{ vars.found.status }}"),
          node("more", "input", { prompt: "Anything else?", variable: "more" }),
          say("bye", "Bye")
        ], [
          edge("start", "ask"),
          edge("ask", "fetch"),
          edge("fetch", "status"),
          edge("status", "more"),
          edge("more", "bye")
        ])
        const started = yield* start(client, id)
        const sessionId = started.session.id
        const calls = (order: string) => server.requests.filter((request) => request.url.includes(`order=${order}`))

        const first = yield* turn(client, sessionId, { text: "A-1" }, "turn-1")
        expect(passed(first.trace)).toEqual(["ask:succeeded", "fetch:succeeded", "status:succeeded", "more:waiting"])
        expect(texts(first.outputs)).toEqual(["The lookup answered 200", "Anything else?"])
        expect(calls("A-1")).toHaveLength(1)
        expect(calls("A-1")[0]!.headers["idempotency-key"]).toMatch(/^pwh_/)

        const repeat = yield* turn(client, sessionId, { text: "A-1" }, "turn-1")
        expect(repeat).toEqual(first)
        expect(calls("A-1")).toHaveLength(1)

        const reused = yield* Effect.flip(turn(client, sessionId, { text: "B-2" }, "turn-1"))
        expect(reused).toMatchObject({ _tag: "IdempotencyKeyReused", idempotencyKey: "turn-1" })
        expect(calls("B-2")).toHaveLength(0)

        // The next turn replays the run from its journal: the call is not made again.
        const last = yield* turn(client, sessionId, { text: "no" }, "turn-2")
        expect(last).toMatchObject({ turn: 2, status: "completed" })
        expect(passed(last.trace)).toEqual(["more:succeeded", "bye:succeeded"])
        expect(last.variables).toMatchObject({ orderId: "A-1", more: "no", found: { status: 200 } })
        expect(calls("A-1")).toHaveLength(1)
        const again = yield* turn(client, sessionId, { text: "no" }, "turn-2")
        expect(again).toEqual(last)
      }))

    it.effect("a running session keeps the draft it started with; the node-execution limit ends a session", () =>
      Effect.gen(function*() {
        const client = yield* clientOf(yield* signUp())
        const id = yield* draft(client, conversation.nodes, conversation.edges)
        const before = yield* start(client, id, { shop: "Acme" })

        const edited = yield* client.workflows.replaceGraph({
          path: { id },
          headers: {},
          payload: graphOf(
            conversation.nodes.map((step) => step.id === "again" ? say("again", "Changed, {{ vars.name }}") : step),
            conversation.edges
          )
        })
        expect(edited.revision).toBe(2)
        const old = yield* turn(client, before.session.id, { text: "Ann" })
        expect(texts(old.outputs)).toEqual(["Hello again, Ann"])
        const after = yield* start(client, id, { shop: "Acme" })
        expect(after.session.revision).toBe(2)
        expect(texts((yield* turn(client, after.session.id, { text: "Ann" })).outputs)).toEqual(["Changed, Ann"])

        // 6000 iterations of two executions each pass the run's 10,000 node executions.
        const looping = yield* draft(client, [
          trigger(),
          node("each", "loop", { over: "[1..6000]", maxIterations: 10_000, collect: "item" }),
          node("step", "transform", { expression: "item * 2", outputVariable: "double" }),
          node("ask", "input", { variable: "never" })
        ], [edge("start", "each"), edge("each", "step", "body"), edge("step", "each"), edge("each", "ask", "done")])
        const limited = yield* start(client, looping)
        expect(limited.session.status).toBe("failed")
        expect(limited.turn).toMatchObject({ status: "failed", waitingFor: null, error: { code: "max-iterations" } })
        const refused = yield* Effect.flip(turn(client, limited.session.id, { text: "hello" }))
        expect(refused).toMatchObject({ _tag: "WorkflowSimSessionEnded", status: "failed" })
      }))

    it.effect("history is paged newest first, with the stated default and maximum", () =>
      Effect.gen(function*() {
        const account = yield* signUp()
        const client = yield* clientOf(account)
        const id = yield* draft(client, [trigger(), say("done", "Done")], [edge("start", "done")])
        const ids: Array<string> = []
        for (let n = 0; n < 3; n++) {
          const started = yield* start(client, id)
          expect(started.turn).toMatchObject({ status: "completed", outputs: [{ text: "Done" }] })
          ids.push(started.session.id)
        }
        const all = yield* sessionsOf(client, id)
        expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 })
        expect(all.items.map((session) => session.id)).toEqual([...ids].reverse())
        const first = yield* sessionsOf(client, id, { limit: 2 })
        expect(first.items.map((session) => session.id)).toEqual([ids[2], ids[1]])
        const second = yield* sessionsOf(client, id, { limit: 2, offset: 2 })
        expect(second).toMatchObject({ total: 3, limit: 2, offset: 2 })
        expect(second.items.map((session) => session.id)).toEqual([ids[0]])

        const base = `/v1/runtime/workflows/${id}/sessions`
        expect((yield* raw(account, "GET", `${base}?limit=100`)).status).toBe(200)
        for (const query of ["limit=101", "limit=0", "offset=-1", "limit=abc"]) {
          const res = yield* raw(account, "GET", `${base}?${query}`)
          expect(res.status, query).toBe(400)
        }
      }))

    it.effect("roles: a viewer reads history but cannot simulate; an editor can; another workspace gets 404s", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const id = yield* draft(client, conversation.nodes, conversation.edges)
        const started = yield* start(client, id, { shop: "Acme" })
        const sessionId = started.session.id

        const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
        expect((yield* sessionsOf(viewer, id)).total).toBe(1)
        const refusedStart = yield* Effect.flip(start(viewer, id, { shop: "Acme" }))
        expect(refusedStart).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })
        const refusedTurn = yield* Effect.flip(turn(viewer, sessionId, { text: "Ann" }))
        expect(refusedTurn).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })

        const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
        const byEditor = yield* start(editor, id, { shop: "Acme" })
        expect(byEditor.session.startedBy.kind).toBe("user")
        expect((yield* turn(editor, sessionId, { text: "Ann" })).status).toBe("completed")

        const stranger = yield* clientOf(yield* signUp())
        const foreignStart = yield* Effect.flip(start(stranger, id, { shop: "Acme" }))
        expect(foreignStart).toMatchObject({ _tag: "WorkflowNotFound", workflowId: id })
        const foreignTurn = yield* Effect.flip(turn(stranger, byEditor.session.id, { text: "Ann" }))
        expect(foreignTurn).toMatchObject({ _tag: "WorkflowSimSessionNotFound", sessionId: byEditor.session.id })
        const foreignList = yield* Effect.flip(sessionsOf(stranger, id))
        expect(foreignList._tag).toBe("WorkflowNotFound")
        // The session is untouched by the stranger's attempt.
        expect((yield* turn(editor, byEditor.session.id, { text: "Bob" })).turn).toBe(1)
      }))

    it.effect("bad input is a typed 4xx: declared inputs, unknown fields, NUL, broken Unicode, both kinds at once", () =>
      Effect.gen(function*() {
        const account = yield* signUp()
        const client = yield* clientOf(account)
        const id = yield* draft(client, conversation.nodes, conversation.edges)

        const missing = yield* Effect.flip(start(client, id))
        expect(missing).toMatchObject({ _tag: "ValidationFailed", fields: ["input.shop"] })
        expect(missing.message).toContain("shop is required")
        const wrongType = yield* Effect.flip(start(client, id, { shop: 7 }))
        expect(wrongType).toMatchObject({ _tag: "ValidationFailed", fields: ["input.shop"] })
        expect((yield* sessionsOf(client, id)).total).toBe(0)

        const startUrl = `/v1/runtime/workflows/${id}/sessions`
        const unknownField = yield* raw(account, "POST", startUrl, JSON.stringify({ input: { shop: "A" }, extra: 1 }))
        expect(unknownField.status).toBe(400)
        const nul = yield* raw(account, "POST", startUrl, JSON.stringify({ input: { shop: "A\u0000" } }))
        expect(nul.status).toBe(400)
        expect(nul.json._tag).toBe("InvalidText")
        const notAnObject = yield* raw(account, "POST", startUrl, JSON.stringify({ input: [1] }))
        expect(notAnObject.status).toBe(400)
        const unknownWorkflow = yield* raw(account, "POST", "/v1/runtime/workflows/not-a-uuid/sessions", "{}")
        expect(unknownWorkflow.status).toBe(400)

        const started = yield* start(client, id, { shop: "Acme" })
        const turnUrl = `/v1/runtime/workflows/sessions/${started.session.id}/turns`
        const refusals = [
          JSON.stringify({ text: "Ann", extra: 1 }),
          JSON.stringify({ text: "Ann", payload: {} }),
          JSON.stringify({ text: "" }),
          JSON.stringify({}),
          JSON.stringify({ text: "A\u0000nn" }),
          "{\"text\":\"A\\ud800nn\"}",
          "{\"text\":"
        ]
        for (const body of refusals) {
          const res = yield* raw(account, "POST", turnUrl, body)
          expect(res.status, body).toBe(400)
        }
        const surrogate = yield* raw(account, "POST", turnUrl, "{\"text\":\"A\\ud800nn\"}")
        expect(surrogate.json).toMatchObject({ _tag: "InvalidText", reason: "lone-surrogate" })
        const badKey = yield* exchange(
          as(postRaw(turnUrl, JSON.stringify({ text: "Ann" })), { token: account.token, address: account.address })
            .pipe(HttpClientRequest.setHeader("idempotency-key", "has space"))
        )
        expect(badKey.status).toBe(400)
        const missingSession = yield* raw(
          account,
          "POST",
          "/v1/runtime/workflows/sessions/0190c7a0-0000-7000-8000-000000000000/turns",
          JSON.stringify({ text: "Ann" })
        )
        expect(missingSession.status).toBe(404)
        expect(missingSession.json._tag).toBe("WorkflowSimSessionNotFound")

        // None of it reached the session: it still waits at its first turn.
        const answered = yield* turn(client, started.session.id, { text: "Ann" })
        expect(answered).toMatchObject({ turn: 1, status: "completed" })
      }))
  }
)
