/**
 * The `RuntimeSession` entity on the library's in-memory test runner, with
 * its state in a real PostgreSQL database and a fixed draft: turns run once
 * per idempotency key (also when the cluster's own storage forgot the
 * message), in order, only for their workspace, not after the end, and a
 * write under an epoch that is no longer the owner's is refused and rerun.
 * A sender that gives up does not cut a turn short, and a poison turn is
 * given up after a bounded number of attempts.
 */
import { TestRunner } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Either, Fiber, Layer, Schema } from "effect"
import * as Crypto from "node:crypto"
import { RuntimeSession } from "../../../src/actors/RuntimeSession.js"
import { RuntimeSessionLive } from "../../../src/actors/RuntimeSessionLive.js"
import { AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowEdges, FlowNodes } from "../../../src/domain/assistants/Flow.js"
import { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { open } from "../../../src/domain/runtime/engine/FlowEngine.js"
import { compile } from "../../../src/domain/runtime/engine/FlowProgram.js"
import { RuntimeSessionId } from "../../../src/domain/runtime/RuntimeSession.js"
import type { TurnInput } from "../../../src/domain/runtime/Turn.js"
import { turnBodyHash } from "../../../src/domain/runtime/TurnBodyHash.js"
import { RuntimeSessionRepo } from "../../../src/persistence/runtime/RuntimeSessionRepo.js"
import { SqlLive } from "../../../src/persistence/Sql.js"
import { Admission } from "../../../src/services/Admission.js"
import { DeploymentPrograms } from "../../../src/services/runtime/DeploymentPrograms.js"
import { DraftPrograms } from "../../../src/services/runtime/DraftPrograms.js"
import { TurnSender } from "../../../src/services/runtime/TurnSender.js"
import { echoFlow } from "../../support/Conversations.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { configFrom } from "../../support/TestServer.js"

class Database extends Context.Tag("test/RuntimeSession/Database")<Database, { readonly url: string }>() {}

/** The echo flow, keeping the answer in `last_said`: a snake_case name must come back from the database as it went in. */
const graph = Schema.decodeUnknownSync(Schema.Struct({ nodes: FlowNodes, edges: FlowEdges }))({
  nodes: echoFlow.nodes.map((node) =>
    node.id === "ask"
      ? { ...node, data: { ...node.data, variable: "last_said" } }
      : node.id === "echo"
      ? { ...node, data: { text: "You said: {{last_said}}" } }
      : node
  ),
  edges: echoFlow.edges
})
const program = Either.getOrThrow(
  compile({ nodes: graph.nodes, edges: graph.edges, subflows: [], intents: [], nluThreshold: 0.5, locale: "en" })
)
const REVISION = 1

/** The draft is fixed: the echo flow, at revision 1. */
const FixedDraft = Layer.succeed(
  DraftPrograms,
  DraftPrograms.make({
    draft: () => Effect.succeed({ revision: REVISION, language: "en", program: Either.right(program) })
  })
)

const Storage = Layer.unwrapEffect(
  Effect.map(Database, ({ url }) =>
    RuntimeSessionRepo.Default.pipe(
      Layer.provideMerge(SqlLive),
      Layer.provide(Layer.setConfigProvider(configFrom({ DATABASE_URL: url })))
    ))
).pipe(Layer.provideMerge(Layer.scoped(Database, freshDatabase)))

/** A test runner (its message storage in memory) hosting the entity. */
const Runner = RuntimeSessionLive.pipe(
  Layer.provideMerge(TestRunner.layer),
  Layer.provide([FixedDraft, DeploymentPrograms.Default])
)

/** The same draft, taking half a second to load: a turn that is still running when its sender gives up. */
const SlowRunner = RuntimeSessionLive.pipe(
  Layer.provideMerge(TestRunner.layer),
  Layer.provide([
    Layer.succeed(
      DraftPrograms,
      DraftPrograms.make({
        draft: () =>
          Effect.as(Effect.sleep("500 millis"), { revision: REVISION, language: "en", program: Either.right(program) })
      })
    ),
    DeploymentPrograms.Default
  ])
)

const workspace = WorkspaceId.make(Crypto.randomUUID())
const agent = AssistantId.make(Crypto.randomUUID())

/** A workspace and an Assistant to hang sessions on (the rows the foreign keys want). */
const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
             VALUES (${workspace}, ${`ws-${workspace.slice(0, 8)}`}, 'Test', now(), now())
             ON CONFLICT DO NOTHING`
  yield* sql`INSERT INTO assistants (id, workspace_id, name, description, language, nlu_threshold, revision,
               created_at, updated_at)
             VALUES (${agent}, ${workspace}, 'Echo', '', 'en', 0.5, ${REVISION}, now(), now())
             ON CONFLICT DO NOTHING`
})

/** A new session at its opening, stored as the service stores one. */
const newSession = Effect.gen(function*() {
  yield* seed
  const repo = yield* RuntimeSessionRepo
  const id = RuntimeSessionId.make(Crypto.randomUUID())
  const step = yield* open(program, {})
  yield* repo.create({
    id,
    workspaceId: workspace,
    agentId: agent,
    source: "draft",
    deploymentId: null,
    revision: REVISION,
    locale: "en",
    state: step.state,
    status: step.state.status,
    startedBy: null,
    endUserId: null,
    opening: {
      sessionId: id,
      turn: 0,
      messages: step.messages,
      status: step.state.status,
      ended: false,
      traceId: "0".repeat(32),
      state: step.state,
      debug: { path: step.path, nlu: null }
    },
    traceId: "0".repeat(32)
  })
  return id
})

const turnTo = (id: RuntimeSessionId, input: TurnInput, key: string, workspaceId = workspace) =>
  Effect.flatMap(
    RuntimeSession.client,
    (client) =>
      client(id).Turn({
        workspaceId,
        deploymentId: null,
        input,
        idempotencyKey: key,
        bodyHash: turnBodyHash(input),
        traceId: "a".repeat(32)
      })
  )

const failures = (id: RuntimeSessionId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ idempotencyKey: string; attempts: number; failed: boolean }>`
      SELECT idempotency_key, attempts, failed FROM runtime_turn_failures WHERE session_id = ${id}`)

const storedTurns = (id: RuntimeSessionId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ turn: number; epoch: number; idempotencyKey: string }>`
      SELECT turn, epoch, idempotency_key FROM runtime_turns WHERE session_id = ${id} AND turn > 0 ORDER BY turn`)

describe("RuntimeSession", () => {
  layer(Storage, { excludeTestServices: true, timeout: 60_000 })((it) => {
    it.effect("runs a turn once per key, whatever the cluster's own storage remembers", () =>
      Effect.gen(function*() {
        const id = yield* newSession
        const first = yield* turnTo(id, { text: "hello" }, "k1").pipe(Effect.provide(Runner))
        expect(first.turn).toBe(1)
        expect(first.messages.map((message) => message.type === "text" ? message.text : message.type)).toEqual([
          "You said: hello",
          "Go on."
        ])
        expect(first.state.variables).toEqual({ last_said: "hello" })
        // The same key and body again, to a runner whose message storage is new (as after losing it): the stored
        // reply, nothing run.
        const again = yield* turnTo(id, { text: "hello" }, "k1").pipe(Effect.provide(Runner))
        expect(again).toEqual(first)
        // The same key with another body is refused, and nothing moves.
        const reused = yield* turnTo(id, { text: "something else" }, "k1").pipe(Effect.provide(Runner), Effect.flip)
        expect(reused._tag).toBe("IdempotencyKeyReused")
        expect((yield* storedTurns(id)).map((row) => row.idempotencyKey)).toEqual(["k1"])
      }))

    it.effect("processes one session's turns strictly in order", () =>
      Effect.gen(function*() {
        const id = yield* newSession
        const replies = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i + 1),
          (i) => turnTo(id, { text: `m${i}` }, `k${i}`),
          { concurrency: "unbounded" }
        ).pipe(Effect.provide(Runner))
        expect(replies.map((reply) => reply.turn)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
        replies.forEach((reply, i) => expect(reply.state.variables).toEqual({ last_said: `m${i + 1}` }))
        expect((yield* storedTurns(id)).map((row) => row.turn)).toEqual(replies.map((reply) => reply.turn))
      }))

    it.effect("is not found from another workspace, nor when it does not exist", () =>
      Effect.gen(function*() {
        const id = yield* newSession
        const foreign = yield* turnTo(id, { text: "hi" }, "k1", WorkspaceId.make(Crypto.randomUUID())).pipe(
          Effect.provide(Runner),
          Effect.flip
        )
        expect(foreign._tag).toBe("RuntimeSessionNotFound")
        const missing = yield* turnTo(RuntimeSessionId.make(Crypto.randomUUID()), { text: "hi" }, "k1").pipe(
          Effect.provide(Runner),
          Effect.flip
        )
        expect(missing._tag).toBe("RuntimeSessionNotFound")
        expect(yield* storedTurns(id)).toEqual([])
      }))

    it.effect("refuses turns once the session is over", () =>
      Effect.gen(function*() {
        const id = yield* newSession
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE runtime_sessions
                   SET status = 'ended', state = jsonb_set(jsonb_set(state, '{status}', '"ended"'), '{nodeId}', 'null')
                   WHERE id = ${id}`
        const refused = yield* turnTo(id, { text: "hi" }, "k1").pipe(Effect.provide(Runner), Effect.flip)
        expect(refused._tag).toBe("RuntimeSessionEnded")
      }))

    it.effect("never writes under an epoch that lost ownership: the turn reruns under the new one", () =>
      Effect.scoped(Effect.gen(function*() {
        const id = yield* newSession
        const sql = yield* SqlClient.SqlClient
        const context = yield* Layer.build(Runner)
        const send = (text: string, key: string) => turnTo(id, { text }, key).pipe(Effect.provide(context))
        expect((yield* send("one", "k1")).turn).toBe(1)
        // Another activation claims the session behind this one's back.
        yield* sql`UPDATE runtime_sessions SET owner_epoch = owner_epoch + 10 WHERE id = ${id}`
        const second = yield* send("two", "k2")
        expect(second.turn).toBe(2)
        const turns = yield* storedTurns(id)
        expect(turns.map((row) => row.turn)).toEqual([1, 2])
        // The first turn was written under the first epoch; the second only after the entity took ownership anew.
        expect(turns[1]!.epoch).toBeGreaterThan(turns[0]!.epoch + 10)
        const owners = yield* sql<{ epoch: number }>`
          SELECT epoch FROM runtime_session_owners WHERE session_id = ${id} ORDER BY epoch`
        expect(owners.map((row) => row.epoch)).toContain(turns[1]!.epoch)
      })))

    it.effect("runs a turn to its end when its sender gives up, and answers the repeat with it", () =>
      Effect.scoped(Effect.gen(function*() {
        const id = yield* newSession
        const context = yield* Layer.build(SlowRunner)
        const send = turnTo(id, { text: "hello" }, "k1").pipe(Effect.provide(context))
        // The sender gives up while the turn is running (its draft takes 500 ms to load).
        const abandoned = yield* Effect.fork(send)
        yield* Effect.sleep("150 millis")
        yield* Fiber.interrupt(abandoned)
        // The repeat waits for that turn and gets its answer: not an interruption, not a second run.
        const repeat = yield* send
        expect(repeat.turn).toBe(1)
        expect((yield* storedTurns(id)).map((row) => row.idempotencyKey)).toEqual(["k1"])
        expect((yield* send).turn).toBe(1)
      })))

    it.effect("delivers a turn detached from the request: a request that gives up leaves it running, a repeat joins it", () =>
      Effect.scoped(Effect.gen(function*() {
        const id = yield* newSession
        const context = yield* Layer.build(
          TurnSender.Default.pipe(Layer.provideMerge(SlowRunner), Layer.provide(Admission.Default))
        )
        const sender = Context.get(context, TurnSender)
        const payload = {
          workspaceId: workspace,
          deploymentId: null,
          input: { text: "hello" },
          idempotencyKey: "k1",
          bodyHash: turnBodyHash({ text: "hello" }),
          traceId: "a".repeat(32)
        }
        const request = yield* Effect.fork(sender.send(id, payload))
        yield* Effect.sleep("100 millis")
        yield* Fiber.interrupt(request)
        // The request is gone; its delivery is not, and a repeat waits for it rather than sending again.
        expect(yield* sender.inProgress).toBe(1)
        const repeat = yield* Effect.fork(sender.send(id, payload))
        yield* Effect.sleep("50 millis")
        expect(yield* sender.inProgress).toBe(1)
        expect((yield* Fiber.join(repeat)).turn).toBe(1)
        expect(yield* sender.inProgress).toBe(0)
        expect((yield* storedTurns(id)).map((row) => row.idempotencyKey)).toEqual(["k1"])
      })))

    it.effect("gives up a turn that dies on every attempt, and the session goes on", () =>
      Effect.scoped(Effect.gen(function*() {
        const id = yield* newSession
        const context = yield* Layer.build(Runner)
        // PostgreSQL refuses a NUL in jsonb, so this turn's commit fails whenever it runs.
        const poison = turnTo(id, { text: "bad\u0000" }, "poison").pipe(Effect.provide(context))
        const failed = yield* Effect.flip(poison)
        expect(failed).toMatchObject({ _tag: "TurnFailed", idempotencyKey: "poison", attempts: 3 })
        expect(yield* failures(id)).toEqual([{ idempotencyKey: "poison", attempts: 3, failed: true }])
        // Its key keeps that answer, from the cluster and from a runner that never saw it.
        expect((yield* Effect.flip(poison))._tag).toBe("TurnFailed")
        const fresh = yield* turnTo(id, { text: "bad\u0000" }, "poison").pipe(Effect.provide(Runner), Effect.flip)
        expect(fresh._tag).toBe("TurnFailed")
        // The conversation is where it was and takes the next message.
        const next = yield* turnTo(id, { text: "fine" }, "k2").pipe(Effect.provide(context))
        expect(next.turn).toBe(1)
        expect(next.state.variables).toEqual({ last_said: "fine" })
        expect((yield* storedTurns(id)).map((row) => row.idempotencyKey)).toEqual(["k2"])
      })))

    it.effect("counts an attempt before running a turn its node may have died on, and gives it up at the bound", () =>
      Effect.gen(function*() {
        const id = yield* newSession
        const sql = yield* SqlClient.SqlClient
        // As after two activations that each died running "k1" (a node killed by it, twice): unsettled, two
        // attempts counted.
        yield* sql`UPDATE runtime_sessions SET unsettled_activations = 2 WHERE id = ${id}`
        yield* sql`INSERT INTO runtime_turn_failures (session_id, idempotency_key, body_hash, attempts, reason)
                   VALUES (${id}, 'k1', ${turnBodyHash({ text: "hello" })}, 2, 'node stopped')`
        const refused = yield* turnTo(id, { text: "hello" }, "k1").pipe(Effect.provide(Runner), Effect.flip)
        expect(refused).toMatchObject({ _tag: "TurnFailed", attempts: 3 })
        expect(yield* storedTurns(id)).toEqual([])
        // A suspect session whose turn then runs is settled by it.
        const other = yield* newSession
        yield* sql`UPDATE runtime_sessions SET unsettled_activations = 4 WHERE id = ${other}`
        expect((yield* turnTo(other, { text: "hi" }, "k1").pipe(Effect.provide(Runner))).turn).toBe(1)
        const [row] = yield* sql<{ unsettledActivations: number }>`
          SELECT unsettled_activations FROM runtime_sessions WHERE id = ${other}`
        expect(row!.unsettledActivations).toBe(0)
        expect(yield* failures(other)).toEqual([{ idempotencyKey: "k1", attempts: 1, failed: false }])
      }))

    it.effect("reloads a session whose memory fell behind the database, without counting it against the turn", () =>
      Effect.scoped(Effect.gen(function*() {
        const id = yield* newSession
        const sql = yield* SqlClient.SqlClient
        const context = yield* Layer.build(Runner)
        const send = (text: string, key: string) => turnTo(id, { text }, key).pipe(Effect.provide(context))
        expect((yield* send("one", "k1")).turn).toBe(1)
        // A turn committed that the entity never heard of (its write cut off between the commit and its memory).
        yield* sql`INSERT INTO runtime_turns (session_id, turn, idempotency_key, body_hash, input, reply, epoch, trace_id)
                   SELECT session_id, 2, 'lost', body_hash, input, jsonb_set(reply, '{turn}', '2'), epoch, trace_id
                   FROM runtime_turns WHERE session_id = ${id} AND turn = 1`
        yield* sql`UPDATE runtime_sessions SET turn = 2 WHERE id = ${id}`
        expect((yield* send("three", "k3")).turn).toBe(3)
        expect((yield* storedTurns(id)).map((row) => row.idempotencyKey)).toEqual(["k1", "lost", "k3"])
        expect(yield* failures(id)).toEqual([])
      })))
  })
})
