/**
 * The `RuntimeSession` entity on the library's in-memory test runner, with
 * its state in a real PostgreSQL database and a fixed draft: turns run once
 * per idempotency key (also when the cluster's own storage forgot the
 * message), in order, only for their workspace, not after the end, and a
 * write under an epoch that is no longer the owner's is refused and rerun.
 */
import { TestRunner } from "@effect/cluster"
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Either, Layer, Schema } from "effect"
import * as Crypto from "node:crypto"
import { RuntimeSession } from "../../src/actors/RuntimeSession.js"
import { RuntimeSessionLive } from "../../src/actors/RuntimeSessionLive.js"
import { AssistantId } from "../../src/domain/assistants/Assistant.js"
import { FlowEdges, FlowNodes } from "../../src/domain/assistants/Flow.js"
import { WorkspaceId } from "../../src/domain/identity/Ids.js"
import { open } from "../../src/domain/runtime/engine/FlowEngine.js"
import { compile } from "../../src/domain/runtime/engine/FlowProgram.js"
import { RuntimeSessionId } from "../../src/domain/runtime/RuntimeSession.js"
import type { TurnInput } from "../../src/domain/runtime/Turn.js"
import { RuntimeSessionRepo } from "../../src/persistence/runtime/RuntimeSessionRepo.js"
import { SqlLive } from "../../src/persistence/Sql.js"
import { DeploymentPrograms } from "../../src/services/runtime/DeploymentPrograms.js"
import { DraftPrograms } from "../../src/services/runtime/DraftPrograms.js"
import { bodyHash } from "../../src/services/runtime/RuntimeSessions.js"
import { echoFlow } from "../support/Conversations.js"
import { freshDatabase } from "../support/TestDatabase.js"
import { configFrom } from "../support/TestServer.js"

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
        bodyHash: bodyHash(input),
        traceId: "a".repeat(32)
      })
  )

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
  })
})
