/**
 * Runtime sessions on an Assistant's draft, over real HTTP and the real
 * database: a conversation through choices (by button and by typed synonym),
 * a number question that reprompts, a set-variable, a condition and an end;
 * the opening and its trace; exactly-once turns per Idempotency-Key (retries,
 * a reused key, no key, ten identical requests at once); the transcript; and
 * who may do what: other workspaces (also when they send the owner's key and
 * body, before or after the owner does), viewers, strict bodies, drafts that
 * cannot run.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AssistantCreate, AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { RuntimeSessionId } from "../../../src/domain/runtime/RuntimeSession.js"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

type Caller = Parameters<typeof as>[1]

const at = (x: number) => ({ x, y: 0 })

/**
 * A pizza order: a size (quick replies; "large" says a word more), extra
 * cheese (yes/no, with synonyms), a quantity (a whole number from 1 to 10,
 * with a reprompt naming the customer), a price computed by an expression,
 * and a bulk message when three or more are ordered.
 */
const orderFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "greet", type: "message", position: at(100), data: { text: "Hello {{name}}, welcome to {{shop}}." } },
    {
      id: "ask_size",
      type: "question",
      position: at(200),
      data: {
        prompt: "Which size?",
        variable: "size",
        validation: {
          kind: "choice",
          options: [
            { value: "small", label: "Small", synonyms: ["tiny", "petite"] },
            { value: "large", label: "Large", synonyms: ["big", "huge"] }
          ]
        }
      }
    },
    { id: "note_large", type: "message", position: at(300), data: { text: "Large it is." } },
    {
      id: "ask_extra",
      type: "question",
      position: at(400),
      data: {
        prompt: "Extra cheese?",
        variable: "extra",
        validation: {
          kind: "choice",
          options: [
            { value: "yes", label: "Yes", synonyms: ["sure", "of course"] },
            { value: "no", label: "No", synonyms: ["nope"] }
          ]
        }
      }
    },
    {
      id: "ask_qty",
      type: "question",
      position: at(500),
      data: {
        prompt: "How many?",
        variable: "qty",
        validation: { kind: "number", integer: true, min: 1, max: 10 },
        reprompt: "Between 1 and 10, please, {{name}}."
      }
    },
    {
      id: "price",
      type: "set-variable",
      position: at(600),
      data: { variable: "total", expression: "vars.qty * (vars.size = 'large' ? 7 : 5)" }
    },
    {
      id: "check",
      type: "condition",
      position: at(700),
      data: { cases: [{ key: "bulk", expression: "vars.qty >= 3" }] }
    },
    { id: "bulk", type: "message", position: at(800), data: { text: "Bulk order: {{qty}} x {{size}} = {{total}}" } },
    { id: "regular", type: "message", position: at(800), data: { text: "Order: {{qty}} x {{size}} = {{total}}" } },
    { id: "bye", type: "end", position: at(900), data: { message: "Thanks {{name}}!", outcome: "ordered" } },
    { id: "gave_up", type: "end", position: at(900), data: { outcome: "gave_up" } }
  ],
  edges: [
    { id: "e1", source: "start", target: "greet", kind: "next" },
    { id: "e2", source: "greet", target: "ask_size", kind: "next" },
    { id: "e3", source: "ask_size", target: "note_large", kind: "option", option: "large" },
    { id: "e4", source: "ask_size", target: "ask_extra", kind: "option", option: "small" },
    { id: "e5", source: "ask_size", target: "gave_up", kind: "fallback" },
    { id: "e6", source: "note_large", target: "ask_extra", kind: "next" },
    { id: "e7", source: "ask_extra", target: "ask_qty", kind: "answered" },
    { id: "e8", source: "ask_extra", target: "gave_up", kind: "fallback" },
    { id: "e9", source: "ask_qty", target: "price", kind: "answered" },
    { id: "e10", source: "ask_qty", target: "gave_up", kind: "fallback" },
    { id: "e11", source: "price", target: "check", kind: "next" },
    { id: "e12", source: "check", target: "bulk", kind: "case", case: "bulk" },
    { id: "e13", source: "check", target: "regular", kind: "fallback" },
    { id: "e14", source: "bulk", target: "bye", kind: "next" },
    { id: "e15", source: "regular", target: "bye", kind: "next" }
  ]
}

const sizeButtons = [{ label: "Small", payload: "small" }, { label: "Large", payload: "large" }]
const cheeseButtons = [{ label: "Yes", payload: "yes" }, { label: "No", payload: "no" }]

/** A new Assistant of the owner's workspace whose draft is `graph`; its id. */
const assistantWith = (owner: TestAccount, graph: unknown, name = "Runtime") =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const created = yield* client.assistants.create({ payload: AssistantCreate.make({ name }) })
    yield* client.flows.replaceFlow({
      path: { agent_id: created.id },
      headers: {},
      payload: Schema.decodeUnknownSync(FlowReplace)(graph)
    })
    return created.id
  })

const startSession = (caller: Caller, body: unknown) => post("/v1/runtime/sessions", body, caller)

const sendTurn = (caller: Caller, sessionId: string, body: unknown, key?: string) =>
  exchange(as(
    HttpClientRequest.post(`/v1/runtime/sessions/${sessionId}/turns`).pipe(
      HttpClientRequest.bodyUnsafeJson(body),
      key === undefined ? (r) => r : HttpClientRequest.setHeader("idempotency-key", key)
    ),
    caller
  ))

const readSession = (caller: Caller, sessionId: string) =>
  exchange(as(HttpClientRequest.get(`/v1/runtime/sessions/${sessionId}`), caller))

/** A started session on an echo Assistant of the owner's workspace; its id. */
const echoSession = (owner: TestAccount) =>
  Effect.gen(function*() {
    const agentId = yield* assistantWith(owner, echoFlow, "Echo")
    const opening = yield* startSession(owner, { agentId })
    expect(opening.status).toBe(201)
    return opening.json.sessionId as string
  })

/** The user entries of a session's transcript, as `[turn, key, input]`. */
const userTurns = (caller: Caller, sessionId: string) =>
  Effect.map(readSession(caller, sessionId), (read) =>
    (read.json.transcript as Array<any>)
      .filter((entry) => entry.role === "user")
      .map((entry) => [entry.turn, entry.idempotencyKey, entry.input]))

layer(testServer(), { excludeTestServices: true })("runtime sessions", (it) => {
  it.effect("a conversation through choices, a reprompted number, a computed variable and a condition ends", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, orderFlow)

      const opening = yield* startSession(owner, { agentId, variables: { name: "Ada", shop: "Parley Pizza" } })
      expect(opening.status).toBe(201)
      expect(opening.headers["x-trace-id"]).toBe(opening.json.traceId)
      expect(opening.json).toMatchObject({
        turn: 0,
        status: "active",
        ended: false,
        messages: [
          { type: "text", text: "Hello Ada, welcome to Parley Pizza.", nodeId: "greet" },
          { type: "buttons", display: "quick-replies", text: "Which size?", buttons: sizeButtons, nodeId: "ask_size" }
        ],
        state: { status: "active", nodeId: "ask_size", attempts: 0, variables: { name: "Ada", shop: "Parley Pizza" } },
        debug: { path: ["start", "greet", "ask_size"], nlu: null }
      })
      const sessionId = opening.json.sessionId as string
      const turn = (body: unknown, key: string) =>
        Effect.tap(sendTurn(owner, sessionId, body, key), (res) => {
          expect(res.status).toBe(200)
          expect(res.headers["x-trace-id"]).toBe(res.json.traceId)
        })

      // A button's payload chooses its option, and its option edge.
      const size = yield* turn({ payload: "large" }, "size")
      expect(size.json).toMatchObject({
        sessionId,
        turn: 1,
        status: "active",
        ended: false,
        messages: [
          { type: "text", text: "Large it is.", nodeId: "note_large" },
          { type: "buttons", display: "quick-replies", text: "Extra cheese?", buttons: cheeseButtons }
        ],
        state: { nodeId: "ask_extra", attempts: 0, variables: { size: "large" } },
        debug: { path: ["ask_size", "note_large", "ask_extra"] }
      })
      // A typed synonym chooses too, whatever its case and spacing.
      const extra = yield* turn({ text: "  Of   COURSE " }, "extra")
      expect(extra.json).toMatchObject({
        turn: 2,
        messages: [{ type: "text", text: "How many?", nodeId: "ask_qty" }],
        state: { nodeId: "ask_qty", attempts: 0, variables: { extra: "yes" } }
      })
      // Invalid numbers reprompt and count attempts; the question keeps waiting.
      const words = yield* turn({ text: "lots" }, "qty-1")
      expect(words.json).toMatchObject({
        turn: 3,
        status: "active",
        messages: [{ type: "text", text: "Between 1 and 10, please, Ada.", nodeId: "ask_qty" }],
        state: { nodeId: "ask_qty", attempts: 1 },
        debug: { path: ["ask_qty"] }
      })
      expect(words.json.state.variables.qty).toBeUndefined()
      const tooMany = yield* turn({ text: "12" }, "qty-2")
      expect(tooMany.json).toMatchObject({ turn: 4, state: { nodeId: "ask_qty", attempts: 2 } })
      // A valid one moves on: the price is computed, the condition takes the bulk case, the end ends.
      const done = yield* turn({ text: "3" }, "qty-3")
      expect(done.json).toMatchObject({
        turn: 5,
        status: "ended",
        ended: true,
        messages: [
          { type: "text", text: "Bulk order: 3 x large = 21", nodeId: "bulk" },
          { type: "end", text: "Thanks Ada!", outcome: "ordered", nodeId: "bye" }
        ],
        state: {
          status: "ended",
          nodeId: null,
          attempts: 0,
          variables: { name: "Ada", shop: "Parley Pizza", size: "large", extra: "yes", qty: 3, total: 21 }
        },
        debug: { path: ["ask_qty", "price", "check", "bulk", "bye"], nlu: null }
      })

      const after = yield* sendTurn(owner, sessionId, { text: "one more" }, "late")
      expect(after.status).toBe(409)
      expect(after.json).toMatchObject({ _tag: "RuntimeSessionEnded", sessionId, status: "ended" })
      // The ending turn, retried, is still its stored reply; the refused one left no trace.
      const retried = yield* sendTurn(owner, sessionId, { text: "3" }, "qty-3")
      expect(retried.status).toBe(200)
      expect(retried.json).toEqual(done.json)
      const read = yield* readSession(owner, sessionId)
      expect(read.json.session).toMatchObject({ id: sessionId, agentId, turn: 5, state: done.json.state })
      expect(read.json.session.endedAt).not.toBeNull()
      expect((yield* userTurns(owner, sessionId)).map(([turn, key]) => [turn, key])).toEqual([
        [1, "size"],
        [2, "extra"],
        [3, "qty-1"],
        [4, "qty-2"],
        [5, "qty-3"]
      ])

      // Another conversation on the same draft: a synonym chooses the small size, and two take the other branch.
      const other = yield* startSession(owner, { agentId, variables: { name: "Bo" } })
      const otherId = other.json.sessionId as string
      expect(other.json.messages[0].text).toBe("Hello Bo, welcome to .")
      const small = yield* sendTurn(owner, otherId, { text: "Tiny" })
      expect(small.json).toMatchObject({ state: { nodeId: "ask_extra", variables: { size: "small" } } })
      expect(small.json.debug.path).toEqual(["ask_size", "ask_extra"])
      yield* sendTurn(owner, otherId, { payload: "no" })
      const two = yield* sendTurn(owner, otherId, { text: "2" })
      expect(two.json).toMatchObject({
        turn: 3,
        ended: true,
        messages: [{ text: "Order: 2 x small = 10" }, { type: "end", text: "Thanks Bo!" }],
        state: { variables: { extra: "no", qty: 2, total: 10 } },
        debug: { path: ["ask_qty", "price", "check", "regular", "bye"] }
      })
    }))

  it.effect("the longest key the contract allows (200 characters) is a turn like any other, once", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const key = "k".repeat(199) + "!"
      const first = yield* sendTurn(owner, sessionId, { text: "long key" }, key)
      expect(first.status).toBe(200)
      expect(first.json.turn).toBe(1)
      const again = yield* sendTurn(owner, sessionId, { text: "long key" }, key)
      expect(again.json).toEqual(first.json)
      expect(yield* userTurns(owner, sessionId)).toEqual([[1, key, { text: "long key" }]])
      // One more character is the contract's 400, not a storage error.
      const tooLong = yield* sendTurn(owner, sessionId, { text: "long key" }, key + "k")
      expect(tooLong.status).toBe(400)
    }))

  it.effect("a retry with the same key and body answers the same reply and runs once; another body is a 409", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const first = yield* sendTurn(owner, sessionId, { text: "hello" }, "k1")
      expect(first.status).toBe(200)
      expect(first.json).toMatchObject({ turn: 1, messages: [{ text: "You said: hello" }, { text: "Go on." }] })
      const again = yield* sendTurn(owner, sessionId, { text: "hello" }, "k1")
      expect(again.status).toBe(200)
      expect(again.json).toEqual(first.json)

      const before = yield* readSession(owner, sessionId)
      const reused = yield* sendTurn(owner, sessionId, { text: "something else" }, "k1")
      expect(reused.status).toBe(409)
      expect(reused.json).toMatchObject({ _tag: "IdempotencyKeyReused", idempotencyKey: "k1" })
      const asPayload = yield* sendTurn(owner, sessionId, { payload: "hello" }, "k1")
      expect(asPayload.status).toBe(409)
      expect(asPayload.json._tag).toBe("IdempotencyKeyReused")
      const after = yield* readSession(owner, sessionId)
      expect(after.json).toEqual(before.json)
      expect(after.json.session.turn).toBe(1)
      expect(yield* userTurns(owner, sessionId)).toEqual([[1, "k1", { text: "hello" }]])

      // The next key moves on from where the session is.
      const next = yield* sendTurn(owner, sessionId, { text: "something else" }, "k2")
      expect(next.json).toMatchObject({ turn: 2, state: { variables: { said: "something else" } } })
    }))

  it.effect("without a key, each request is a turn of its own", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const first = yield* sendTurn(owner, sessionId, { text: "same" })
      const second = yield* sendTurn(owner, sessionId, { text: "same" })
      expect([first.status, second.status]).toEqual([200, 200])
      expect([first.json.turn, second.json.turn]).toEqual([1, 2])
      const users = yield* userTurns(owner, sessionId)
      expect(users.map(([turn, , input]) => [turn, input])).toEqual([[1, { text: "same" }], [2, { text: "same" }]])
      // The server made a key for each.
      expect(new Set(users.map(([, key]) => key)).size).toBe(2)
    }))

  it.effect("ten identical requests at once are one turn, and every one of them gets its reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const burst = (key: string, text: string) =>
        Effect.forEach(Array.from({ length: 10 }), () => sendTurn(owner, sessionId, { text }, key), {
          concurrency: "unbounded"
        })
      // The first turn of the session (its entity not yet running anywhere), then one to the running entity.
      for (const [key, turn] of [["k-cold", 1], ["k-warm", 2]] as const) {
        const answers = yield* burst(key, `at once ${turn}`)
        expect(answers.map((res) => [res.status, res.json._tag])).toEqual(answers.map(() => [200, undefined]))
        answers.forEach((res) => expect(res.json).toEqual(answers[0]!.json))
        expect(answers[0]!.json.turn).toBe(turn)
      }
      expect((yield* userTurns(owner, sessionId)).map(([turn, key]) => [turn, key])).toEqual([
        [1, "k-cold"],
        [2, "k-warm"]
      ])
      expect((yield* readSession(owner, sessionId)).json.session.turn).toBe(2)
    }))

  it.effect("the transcript: the opening first, then each user input with its key and each reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const opening = yield* startSession(owner, { agentId, locale: "en" })
      const sessionId = opening.json.sessionId as string
      const one = yield* sendTurn(owner, sessionId, { text: "one" }, "a")
      const two = yield* sendTurn(owner, sessionId, { payload: "two" }, "b")

      const read = yield* readSession(owner, sessionId)
      expect(read.status).toBe(200)
      expect(read.json.session).toMatchObject({
        id: sessionId,
        agentId,
        source: "draft",
        deploymentId: null,
        locale: "en",
        turn: 2,
        state: two.json.state,
        startedBy: { kind: "user", userId: owner.userId },
        endedAt: null
      })
      const transcript = read.json.transcript as Array<any>
      expect(transcript.map((entry) => [entry.role, entry.turn])).toEqual([
        ["bot", 0],
        ["user", 1],
        ["bot", 1],
        ["user", 2],
        ["bot", 2]
      ])
      expect(transcript[0]).toEqual({ role: "bot", turn: 0, messages: opening.json.messages, at: expect.any(String) })
      expect(transcript[1]).toEqual({
        role: "user",
        turn: 1,
        input: { text: "one" },
        idempotencyKey: "a",
        at: expect.any(String)
      })
      expect(transcript[2]).toEqual({ role: "bot", turn: 1, messages: one.json.messages, at: expect.any(String) })
      expect(transcript[3]).toMatchObject({ role: "user", input: { payload: "two" }, idempotencyKey: "b" })
      expect(transcript[4]).toMatchObject({ role: "bot", messages: two.json.messages })
      expect(transcript[4].messages[0].text).toBe("You said: two")

      // What the contract says it is: the typed client reads it back.
      const client = yield* clientOf(owner)
      const typed = yield* client.runtime.getSession({ path: { id: RuntimeSessionId.make(sessionId) } })
      expect(typed.transcript).toHaveLength(5)
      expect(typed.session.turn).toBe(2)
    }))

  it.effect("another workspace's session is not found, read or sent to, and does not move", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      yield* sendTurn(owner, sessionId, { text: "mine" }, "k1")
      const stranger = yield* signUp()
      const read = yield* readSession(stranger, sessionId)
      expect(read.status).toBe(404)
      expect(read.json).toMatchObject({ _tag: "RuntimeSessionNotFound", sessionId })
      const sent = yield* sendTurn(stranger, sessionId, { text: "theirs" }, "k2")
      expect(sent.status).toBe(404)
      expect(sent.json).toMatchObject({ _tag: "RuntimeSessionNotFound", sessionId })
      // Naming the owner's workspace is not a way in either.
      const named = yield* readSession({ ...stranger, workspaceId: owner.workspaceId }, sessionId)
      expect(named.status).toBe(404)
      expect(named.json._tag).toBe("WorkspaceNotFound")
      expect((yield* userTurns(owner, sessionId)).map(([turn, key]) => [turn, key])).toEqual([[1, "k1"]])
      // An Assistant of another workspace is not found to start a session on.
      const agentId = yield* assistantWith(owner, echoFlow, "Mine")
      const foreign = yield* startSession(stranger, { agentId })
      expect(foreign.status).toBe(404)
      expect(foreign.json).toMatchObject({ _tag: "AssistantNotFound", agentId })
    }))

  it.effect("a stranger who repeats the owner's key and body is not answered the owner's reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const mine = yield* sendTurn(owner, sessionId, { text: "my secret" }, "1")
      expect(mine.status).toBe(200)
      const stranger = yield* signUp()
      const replayed = yield* sendTurn(stranger, sessionId, { text: "my secret" }, "1")
      expect([replayed.status, replayed.json._tag]).toEqual([404, "RuntimeSessionNotFound"])
      expect(replayed.text).not.toContain("my secret")
    }))

  it.effect("a stranger's request cannot spoil the owner's next turn with the same key and body", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const stranger = yield* signUp()
      const theirs = yield* sendTurn(stranger, sessionId, { text: "hello" }, "1")
      expect(theirs.status).toBe(404)
      const mine = yield* sendTurn(owner, sessionId, { text: "hello" }, "1")
      expect([mine.status, mine.json._tag, mine.json.turn]).toEqual([200, undefined, 1])
    }))

  it.effect("a viewer reads sessions but may neither start one nor send a turn", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const sessionId = (yield* startSession(owner, { agentId })).json.sessionId as string
      const viewer = { ...(yield* join(owner, "viewer")), workspaceId: owner.workspaceId }

      const start = yield* startSession(viewer, { agentId })
      expect(start.status).toBe(403)
      expect(start.json).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })
      const turn = yield* sendTurn(viewer, sessionId, { text: "hi" }, "v1")
      expect(turn.status).toBe(403)
      expect(turn.json).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })
      const read = yield* readSession(viewer, sessionId)
      expect(read.status).toBe(200)
      expect(read.json.session.turn).toBe(0)

      // An editor may.
      const editor = { ...(yield* join(owner, "editor")), workspaceId: owner.workspaceId }
      expect((yield* sendTurn(editor, sessionId, { text: "hi" }, "e1")).json.turn).toBe(1)
      expect((yield* startSession(editor, { agentId })).status).toBe(201)
    }))

  it.effect("bodies are strict: unknown fields, both text and payload, or neither, are a 400 and change nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const sessionId = (yield* startSession(owner, { agentId })).json.sessionId as string
      const starts = [
        yield* startSession(owner, { agentId, colour: "red" }),
        yield* startSession(owner, {}),
        yield* startSession(owner, { agentId: "not-a-uuid" }),
        yield* startSession(owner, { agentId, variables: { "not a name": 1 } })
      ]
      expect(starts.map((res) => [res.status, res.json._tag])).toEqual(starts.map(() => [400, "HttpApiDecodeError"]))
      const turns = [
        yield* sendTurn(owner, sessionId, { text: "hi", colour: "red" }, "x1"),
        yield* sendTurn(owner, sessionId, { text: "hi", payload: "hi" }, "x2"),
        yield* sendTurn(owner, sessionId, {}, "x3"),
        yield* sendTurn(owner, sessionId, { text: "   " }, "x4"),
        yield* sendTurn(owner, sessionId, { payload: "" }, "x5"),
        yield* sendTurn(owner, sessionId, { text: "hi" }, "has space")
      ]
      expect(turns.map((res) => [res.status, res.json._tag])).toEqual(turns.map(() => [400, "HttpApiDecodeError"]))
      expect((yield* readSession(owner, sessionId)).json.session.turn).toBe(0)
      // The keys of refused requests are still free.
      expect((yield* sendTurn(owner, sessionId, { text: "hi" }, "x2")).json.turn).toBe(1)
    }))

  it.effect("a draft that cannot run is a 422 with its findings; an unknown Assistant is a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const noStart = yield* assistantWith(owner, {
        nodes: [{ id: "hello", type: "message", position: at(0), data: { text: "Hi" } }],
        edges: []
      })
      const refused = yield* startSession(owner, { agentId: noStart })
      expect(refused.status).toBe(422)
      expect(refused.json).toMatchObject({
        _tag: "FlowNotRunnable",
        agentId: noStart,
        findings: [{ code: "missing-start", severity: "error" }]
      })
      expect(refused.json.message).toContain("no start node")

      const empty = yield* assistantWith(owner, { nodes: [], edges: [] }, "Empty")
      expect((yield* startSession(owner, { agentId: empty })).json).toMatchObject({
        _tag: "FlowNotRunnable",
        findings: [{ code: "missing-start" }]
      })

      const unknown = AssistantId.make("0190c7a0-0000-7000-8000-000000000000")
      const missing = yield* startSession(owner, { agentId: unknown })
      expect(missing.status).toBe(404)
      expect(missing.json).toMatchObject({ _tag: "AssistantNotFound", agentId: unknown })
      const unknownSession = yield* sendTurn(owner, "0190c7a0-0000-7000-8000-000000000001", { text: "hi" })
      expect(unknownSession.status).toBe(404)
      expect(unknownSession.json._tag).toBe("RuntimeSessionNotFound")
    }))
})
