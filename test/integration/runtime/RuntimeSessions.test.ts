/**
 * Runtime sessions on an Assistant's draft, over real HTTP and the real
 * database: a conversation through choices (by button and by typed synonym),
 * a number question that reprompts, a set-variable, a condition and an end;
 * the opening and its trace; exactly-once turns per Idempotency-Key (retries,
 * a reused key, no key, ten identical requests at once); the transcript; and
 * who may do what: other workspaces (also when they send the owner's key and
 * body, before or after the owner does), viewers, strict bodies, drafts that
 * cannot run. Through the typed client (each reply's `x-trace-id` read from
 * the response it came with); raw only for the bodies and keys the typed
 * client would refuse to send and for the text of a refusal.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AssistantCreate, AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { RuntimeSessionId } from "../../../src/domain/runtime/RuntimeSession.js"
import { SessionStart } from "../../../src/domain/runtime/SessionStart.js"
import { TurnInput } from "../../../src/domain/runtime/Turn.js"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

type Caller = Parameters<typeof as>[1]
type Client = Effect.Effect.Success<ReturnType<typeof clientOf>>

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

/** `POST /runtime/sessions` through the typed client, `body` decoded with `SessionStart`. */
const startSession = (client: Client, body: unknown) =>
  client.runtime.startSession({ payload: Schema.decodeUnknownSync(SessionStart)(body) })

/** `POST /runtime/sessions` through the typed client, with the response it came in (for its headers). */
const startSessionWithResponse = (client: Client, body: unknown) =>
  client.runtime.startSession({ payload: Schema.decodeUnknownSync(SessionStart)(body), withResponse: true })

/**
 * A turn through the typed client: `body` decoded with `TurnInput`, with an
 * Idempotency-Key when given. The endpoint's two body shapes (`text`,
 * `payload`) are two request types of the client, so each is sent as the one it is.
 */
const sendTurn = (client: Client, sessionId: RuntimeSessionId, body: unknown, key?: string) => {
  const input = Schema.decodeUnknownSync(TurnInput)(body)
  const path = { id: sessionId }
  const headers = key === undefined ? {} : { "idempotency-key": key }
  return "text" in input
    ? client.runtime.sendTurn({ path, headers, payload: input })
    : client.runtime.sendTurn({ path, headers, payload: input })
}

/** A turn through the typed client, with the response it came in (for its headers). */
const sendTurnWithResponse = (client: Client, sessionId: RuntimeSessionId, body: unknown, key: string) => {
  const input = Schema.decodeUnknownSync(TurnInput)(body)
  const path = { id: sessionId }
  const headers = { "idempotency-key": key }
  return "text" in input
    ? client.runtime.sendTurn({ path, headers, payload: input, withResponse: true })
    : client.runtime.sendTurn({ path, headers, payload: input, withResponse: true })
}

const readSession = (client: Client, sessionId: RuntimeSessionId) =>
  client.runtime.getSession({ path: { id: sessionId } })

/** A raw `POST /runtime/sessions`, for bodies the typed client refuses to send. */
const startSessionRaw = (caller: Caller, body: unknown) => post("/v1/runtime/sessions", body, caller)

/** A raw turn, for bodies and keys the typed client refuses to send. */
const sendTurnRaw = (caller: Caller, sessionId: string, body: unknown, key?: string) =>
  exchange(as(
    HttpClientRequest.post(`/v1/runtime/sessions/${sessionId}/turns`).pipe(
      HttpClientRequest.bodyUnsafeJson(body),
      key === undefined ? (r) => r : HttpClientRequest.setHeader("idempotency-key", key)
    ),
    caller
  ))

/** A started session on an echo Assistant of the owner's workspace; its id. */
const echoSession = (owner: TestAccount) =>
  Effect.gen(function*() {
    const agentId = yield* assistantWith(owner, echoFlow, "Echo")
    return (yield* startSession(yield* clientOf(owner), { agentId })).sessionId
  })

/** The user entries of a session's transcript, as `[turn, key, input]`. */
const userTurns = (client: Client, sessionId: RuntimeSessionId) =>
  Effect.map(
    readSession(client, sessionId),
    (read) =>
      read.transcript.flatMap((entry) =>
        entry.role === "user" ? [[entry.turn, entry.idempotencyKey, entry.input] as const] : []
      )
  )

layer(testServer(), { excludeTestServices: true })("runtime sessions", (it) => {
  it.effect("a conversation through choices, a reprompted number, a computed variable and a condition ends", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWith(owner, orderFlow)

      const [opening, started] = yield* startSessionWithResponse(client, {
        agentId,
        variables: { name: "Ada", shop: "Parley Pizza" }
      })
      expect(started.headers["x-trace-id"]).toBe(opening.traceId)
      expect(opening).toMatchObject({
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
      const sessionId = opening.sessionId
      const turn = (body: unknown, key: string) =>
        Effect.map(sendTurnWithResponse(client, sessionId, body, key), ([reply, response]) => {
          expect(response.headers["x-trace-id"]).toBe(reply.traceId)
          return reply
        })

      // A button's payload chooses its option, and its option edge.
      const size = yield* turn({ payload: "large" }, "size")
      expect(size).toMatchObject({
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
      // A typed synonym chooses too, whatever its case and spacing. Raw: text with spaces around it, which
      // the typed client's schema refuses to send.
      const extra = yield* sendTurnRaw(owner, sessionId, { text: "  Of   COURSE " }, "extra")
      expect(extra.status).toBe(200)
      expect(extra.headers["x-trace-id"]).toBe(extra.json.traceId)
      expect(extra.json).toMatchObject({
        turn: 2,
        messages: [{ type: "text", text: "How many?", nodeId: "ask_qty" }],
        state: { nodeId: "ask_qty", attempts: 0, variables: { extra: "yes" } }
      })
      // Invalid numbers reprompt and count attempts; the question keeps waiting.
      const words = yield* turn({ text: "lots" }, "qty-1")
      expect(words).toMatchObject({
        turn: 3,
        status: "active",
        messages: [{ type: "text", text: "Between 1 and 10, please, Ada.", nodeId: "ask_qty" }],
        state: { nodeId: "ask_qty", attempts: 1 },
        debug: { path: ["ask_qty"] }
      })
      expect(words.state.variables.qty).toBeUndefined()
      const tooMany = yield* turn({ text: "12" }, "qty-2")
      expect(tooMany).toMatchObject({ turn: 4, state: { nodeId: "ask_qty", attempts: 2 } })
      // A valid one moves on: the price is computed, the condition takes the bulk case, the end ends.
      const done = yield* turn({ text: "3" }, "qty-3")
      expect(done).toMatchObject({
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

      const after = yield* failureOf(sendTurn(client, sessionId, { text: "one more" }, "late"))
      expect(after).toMatchObject({ _tag: "RuntimeSessionEnded", sessionId, status: "ended" })
      // The ending turn, retried, is still its stored reply; the refused one left no trace.
      const retried = yield* sendTurn(client, sessionId, { text: "3" }, "qty-3")
      expect(retried).toEqual(done)
      const read = yield* readSession(client, sessionId)
      expect(read.session).toMatchObject({ id: sessionId, agentId, turn: 5, state: done.state })
      expect(read.session.endedAt).not.toBeNull()
      expect((yield* userTurns(client, sessionId)).map(([turn, key]) => [turn, key])).toEqual([
        [1, "size"],
        [2, "extra"],
        [3, "qty-1"],
        [4, "qty-2"],
        [5, "qty-3"]
      ])

      // Another conversation on the same draft: a synonym chooses the small size, and two take the other branch.
      const other = yield* startSession(client, { agentId, variables: { name: "Bo" } })
      const otherId = other.sessionId
      expect(other.messages[0]).toMatchObject({ text: "Hello Bo, welcome to ." })
      const small = yield* sendTurn(client, otherId, { text: "Tiny" })
      expect(small).toMatchObject({ state: { nodeId: "ask_extra", variables: { size: "small" } } })
      expect(small.debug.path).toEqual(["ask_size", "ask_extra"])
      yield* sendTurn(client, otherId, { payload: "no" })
      const two = yield* sendTurn(client, otherId, { text: "2" })
      expect(two).toMatchObject({
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
      const client = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      const key = "k".repeat(199) + "!"
      const first = yield* sendTurn(client, sessionId, { text: "long key" }, key)
      expect(first.turn).toBe(1)
      const again = yield* sendTurn(client, sessionId, { text: "long key" }, key)
      expect(again).toEqual(first)
      expect(yield* userTurns(client, sessionId)).toEqual([[1, key, { text: "long key" }]])
      // One more character is the contract's 400, not a storage error. Raw: a key the typed client refuses to send.
      const tooLong = yield* sendTurnRaw(owner, sessionId, { text: "long key" }, key + "k")
      expect(tooLong.status).toBe(400)
    }))

  it.effect("a retry with the same key and body answers the same reply and runs once; another body is a 409", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      const first = yield* sendTurn(client, sessionId, { text: "hello" }, "k1")
      expect(first).toMatchObject({ turn: 1, messages: [{ text: "You said: hello" }, { text: "Go on." }] })
      const again = yield* sendTurn(client, sessionId, { text: "hello" }, "k1")
      expect(again).toEqual(first)

      const before = yield* readSession(client, sessionId)
      const reused = yield* failureOf(sendTurn(client, sessionId, { text: "something else" }, "k1"))
      expect(reused).toMatchObject({ _tag: "IdempotencyKeyReused", idempotencyKey: "k1" })
      const asPayload = yield* failureOf(sendTurn(client, sessionId, { payload: "hello" }, "k1"))
      expect(asPayload._tag).toBe("IdempotencyKeyReused")
      const after = yield* readSession(client, sessionId)
      expect(after).toEqual(before)
      expect(after.session.turn).toBe(1)
      expect(yield* userTurns(client, sessionId)).toEqual([[1, "k1", { text: "hello" }]])

      // The next key moves on from where the session is.
      const next = yield* sendTurn(client, sessionId, { text: "something else" }, "k2")
      expect(next).toMatchObject({ turn: 2, state: { variables: { said: "something else" } } })
    }))

  it.effect("without a key, each request is a turn of its own", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      const first = yield* sendTurn(client, sessionId, { text: "same" })
      const second = yield* sendTurn(client, sessionId, { text: "same" })
      expect([first.turn, second.turn]).toEqual([1, 2])
      const users = yield* userTurns(client, sessionId)
      expect(users.map(([turn, , input]) => [turn, input])).toEqual([[1, { text: "same" }], [2, { text: "same" }]])
      // The server made a key for each.
      expect(new Set(users.map(([, key]) => key)).size).toBe(2)
    }))

  it.effect("ten identical requests at once are one turn, and every one of them gets its reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      const burst = (key: string, text: string) =>
        Effect.forEach(Array.from({ length: 10 }), () => Effect.either(sendTurn(client, sessionId, { text }, key)), {
          concurrency: "unbounded"
        })
      // The first turn of the session (its entity not yet running anywhere), then one to the running entity.
      for (const [key, turn] of [["k-cold", 1], ["k-warm", 2]] as const) {
        const answers = yield* burst(key, `at once ${turn}`)
        expect(answers.map((answer) => answer._tag)).toEqual(answers.map(() => "Right"))
        const replies = answers.flatMap((answer) => answer._tag === "Right" ? [answer.right] : [])
        replies.forEach((reply) => expect(reply).toEqual(replies[0]))
        expect(replies[0]!.turn).toBe(turn)
      }
      expect((yield* userTurns(client, sessionId)).map(([turn, key]) => [turn, key])).toEqual([
        [1, "k-cold"],
        [2, "k-warm"]
      ])
      expect((yield* readSession(client, sessionId)).session.turn).toBe(2)
    }))

  it.effect("the transcript: the opening first, then each user input with its key and each reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const opening = yield* startSession(client, { agentId, locale: "en" })
      const sessionId = opening.sessionId
      const one = yield* sendTurn(client, sessionId, { text: "one" }, "a")
      const two = yield* sendTurn(client, sessionId, { payload: "two" }, "b")

      const read = yield* readSession(client, sessionId)
      expect(read.session).toMatchObject({
        id: sessionId,
        agentId,
        source: "draft",
        deploymentId: null,
        locale: "en",
        turn: 2,
        state: two.state,
        startedBy: { kind: "user", userId: owner.userId },
        endedAt: null
      })
      const transcript = read.transcript
      expect(transcript.map((entry) => [entry.role, entry.turn])).toEqual([
        ["bot", 0],
        ["user", 1],
        ["bot", 1],
        ["user", 2],
        ["bot", 2]
      ])
      // `at` is decoded as a UTC date-time: the answer held a valid one.
      expect(transcript[0]).toEqual({ role: "bot", turn: 0, messages: opening.messages, at: expect.anything() })
      expect(transcript[1]).toEqual({
        role: "user",
        turn: 1,
        input: { text: "one" },
        idempotencyKey: "a",
        at: expect.anything()
      })
      expect(transcript[2]).toEqual({ role: "bot", turn: 1, messages: one.messages, at: expect.anything() })
      expect(transcript[3]).toMatchObject({ role: "user", input: { payload: "two" }, idempotencyKey: "b" })
      expect(transcript[4]).toMatchObject({ role: "bot", messages: two.messages })
      expect(two.messages[0]).toMatchObject({ text: "You said: two" })
    }))

  it.effect("a read during turns shows the session and its transcript of one moment", () =>
    Effect.gen(function*() {
      // The session's row and its turns are two statements: without one snapshot a turn committed
      // between them showed `turn: N` beside a transcript that already held turn N+1.
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      let sending = true
      const reads: Array<{ turn: number; entries: number; last: number }> = []
      const reader = Effect.gen(function*() {
        while (sending) {
          const read = yield* readSession(client, sessionId)
          reads.push({ turn: read.session.turn, entries: read.transcript.length, last: read.transcript.at(-1)!.turn })
        }
      })
      const readers = yield* Effect.fork(Effect.all([reader, reader, reader, reader], { concurrency: "unbounded" }))
      for (let turn = 1; turn <= 15; turn++) yield* sendTurn(client, sessionId, { text: `turn ${turn}` }, `k${turn}`)
      sending = false
      yield* Effect.fromFiber(readers)
      expect(reads.length).toBeGreaterThan(15)
      expect(reads.filter((read) => read.entries !== 2 * read.turn + 1 || read.last !== read.turn)).toEqual([])
    }))

  it.effect("another workspace's session is not found, read or sent to, and does not move", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const ours = yield* clientOf(owner)
      const sessionId = yield* echoSession(owner)
      yield* sendTurn(ours, sessionId, { text: "mine" }, "k1")
      const stranger = yield* signUp()
      const theirs = yield* clientOf(stranger)
      const read = yield* failureOf(readSession(theirs, sessionId))
      expect(read).toMatchObject({ _tag: "RuntimeSessionNotFound", sessionId })
      const sent = yield* failureOf(sendTurn(theirs, sessionId, { text: "theirs" }, "k2"))
      expect(sent).toMatchObject({ _tag: "RuntimeSessionNotFound", sessionId })
      // Naming the owner's workspace is not a way in either.
      const named = yield* failureOf(readSession(yield* clientOf(stranger, owner.workspaceId), sessionId))
      expect(named._tag).toBe("WorkspaceNotFound")
      expect((yield* userTurns(ours, sessionId)).map(([turn, key]) => [turn, key])).toEqual([[1, "k1"]])
      // An Assistant of another workspace is not found to start a session on.
      const agentId = yield* assistantWith(owner, echoFlow, "Mine")
      const foreign = yield* failureOf(startSession(theirs, { agentId }))
      expect(foreign).toMatchObject({ _tag: "AssistantNotFound", agentId })
    }))

  it.effect("a stranger who repeats the owner's key and body is not answered the owner's reply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const mine = yield* sendTurn(yield* clientOf(owner), sessionId, { text: "my secret" }, "1")
      expect(mine.turn).toBe(1)
      const stranger = yield* signUp()
      // Raw, a wire check: the whole text of the refusal, not only the fields the typed client decodes.
      const replayed = yield* sendTurnRaw(stranger, sessionId, { text: "my secret" }, "1")
      expect([replayed.status, replayed.json._tag]).toEqual([404, "RuntimeSessionNotFound"])
      expect(replayed.text).not.toContain("my secret")
    }))

  it.effect("a stranger's request cannot spoil the owner's next turn with the same key and body", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sessionId = yield* echoSession(owner)
      const stranger = yield* signUp()
      const theirs = yield* failureOf(sendTurn(yield* clientOf(stranger), sessionId, { text: "hello" }, "1"))
      expect(theirs._tag).toBe("RuntimeSessionNotFound")
      const mine = yield* sendTurn(yield* clientOf(owner), sessionId, { text: "hello" }, "1")
      expect(mine.turn).toBe(1)
    }))

  it.effect("a viewer reads sessions but may neither start one nor send a turn", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const sessionId = (yield* startSession(yield* clientOf(owner), { agentId })).sessionId
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)

      const start = yield* failureOf(startSession(viewer, { agentId }))
      expect(start).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })
      const turn = yield* failureOf(sendTurn(viewer, sessionId, { text: "hi" }, "v1"))
      expect(turn).toMatchObject({ _tag: "Forbidden", capability: "runtime.simulate" })
      const read = yield* readSession(viewer, sessionId)
      expect(read.session.turn).toBe(0)

      // An editor may.
      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
      expect((yield* sendTurn(editor, sessionId, { text: "hi" }, "e1")).turn).toBe(1)
      expect((yield* startSession(editor, { agentId })).turn).toBe(0)
    }))

  it.effect("bodies are strict: unknown fields, both text and payload, or neither, are a 400 and change nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentId = yield* assistantWith(owner, echoFlow, "Echo")
      const sessionId = (yield* startSession(client, { agentId })).sessionId
      // Raw: bodies and a key the typed client refuses to send; the exact status and tag of the decode error.
      const starts = [
        yield* startSessionRaw(owner, { agentId, colour: "red" }),
        yield* startSessionRaw(owner, {}),
        yield* startSessionRaw(owner, { agentId: "not-a-uuid" }),
        yield* startSessionRaw(owner, { agentId, variables: { "not a name": 1 } })
      ]
      expect(starts.map((res) => [res.status, res.json._tag])).toEqual(starts.map(() => [400, "HttpApiDecodeError"]))
      const turns = [
        yield* sendTurnRaw(owner, sessionId, { text: "hi", colour: "red" }, "x1"),
        yield* sendTurnRaw(owner, sessionId, { text: "hi", payload: "hi" }, "x2"),
        yield* sendTurnRaw(owner, sessionId, {}, "x3"),
        yield* sendTurnRaw(owner, sessionId, { text: "   " }, "x4"),
        yield* sendTurnRaw(owner, sessionId, { payload: "" }, "x5"),
        yield* sendTurnRaw(owner, sessionId, { text: "hi" }, "has space")
      ]
      expect(turns.map((res) => [res.status, res.json._tag])).toEqual(turns.map(() => [400, "HttpApiDecodeError"]))
      expect((yield* readSession(client, sessionId)).session.turn).toBe(0)
      // The keys of refused requests are still free.
      expect((yield* sendTurn(client, sessionId, { text: "hi" }, "x2")).turn).toBe(1)
    }))

  it.effect("a draft that cannot run is a 422 with its findings; an unknown Assistant is a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const noStart = yield* assistantWith(owner, {
        nodes: [{ id: "hello", type: "message", position: at(0), data: { text: "Hi" } }],
        edges: []
      })
      const refused = yield* failureOf(startSession(client, { agentId: noStart }))
      expect(refused).toMatchObject({
        _tag: "FlowNotRunnable",
        agentId: noStart,
        findings: [{ code: "missing-start", severity: "error" }]
      })
      expect(refused.message).toContain("no start node")

      const empty = yield* assistantWith(owner, { nodes: [], edges: [] }, "Empty")
      expect(yield* failureOf(startSession(client, { agentId: empty }))).toMatchObject({
        _tag: "FlowNotRunnable",
        findings: [{ code: "missing-start" }]
      })

      const unknown = AssistantId.make("0190c7a0-0000-7000-8000-000000000000")
      const missing = yield* failureOf(startSession(client, { agentId: unknown }))
      expect(missing).toMatchObject({ _tag: "AssistantNotFound", agentId: unknown })
      const unknownSession = yield* failureOf(
        sendTurn(client, RuntimeSessionId.make("0190c7a0-0000-7000-8000-000000000001"), { text: "hi" })
      )
      expect(unknownSession._tag).toBe("RuntimeSessionNotFound")
    }))
})
