/**
 * The `AgentConversation` entity on a real node and database, through
 * `AgentTurns` (the service the playground route calls): durable steps,
 * exactly-once turns, resume after a crash, failures that are answers.
 * The model is the fake OpenAI server; tools are a loopback server that
 * counts each Idempotency-Key it receives.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Chunk, Context, Effect, Either, Fiber, Layer, Schema, Stream } from "effect"
import { v7 as uuidv7 } from "uuid"
import { AgentTurnRequest } from "../../../src/domain/aiAgents/AgentTurnRequest.js"
import type { AiAgentId } from "../../../src/domain/aiAgents/Ids.js"
import { toolIdempotencyKey } from "../../../src/domain/aiAgents/loop/ToolIdempotencyKey.js"
import { type PlaygroundRequest, PlaygroundResult } from "../../../src/domain/aiAgents/Playground.js"
import type { Principal } from "../../../src/domain/identity/Principal.js"
import { MetricsExposition } from "../../../src/observability/MetricsExposition.js"
import { TracingLive } from "../../../src/observability/Tracing.js"
import { AiAgentRepo } from "../../../src/persistence/aiAgents/AiAgentRepo.js"
import { MigratorLive, SqlLive } from "../../../src/persistence/Sql.js"
import * as DevMailer from "../../../src/providers/DevMailer.js"
import { Admission } from "../../../src/services/Admission.js"
import { AgentSnapshots } from "../../../src/services/aiAgents/AgentSnapshots.js"
import { AgentTurns, playgroundBodyHash } from "../../../src/services/aiAgents/AgentTurns.js"
import { AgentTurnStreams } from "../../../src/services/aiAgents/AgentTurnStreams.js"
import { AiAgents } from "../../../src/services/aiAgents/AiAgents.js"
import { AiAgentsLive } from "../../../src/services/aiAgents/AiAgentsLive.js"
import { AiAgentTools } from "../../../src/services/aiAgents/AiAgentTools.js"
import { AssistantsLive } from "../../../src/services/assistants/AssistantsLive.js"
import { DeploymentsLive } from "../../../src/services/deployments/DeploymentsLive.js"
import { IdentityLive } from "../../../src/services/identity/IdentityLive.js"
import { ImportsLive } from "../../../src/services/imports/ImportsLive.js"
import { Readiness } from "../../../src/services/Readiness.js"
import { RuntimeLive } from "../../../src/services/runtime/RuntimeLive.js"
import { WorkspaceAdminLive } from "../../../src/services/workspace/WorkspaceAdminLive.js"
import { answer, type FakeLlmServer, status } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { freePort } from "../../support/ParleyProcess.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { configFrom, TEST_MASTER_KEY } from "../../support/TestServer.js"
import { type ToolServer, toolServer } from "../../support/ToolServer.js"

class Harness extends Context.Tag("test/AgentConversationHarness")<Harness, {
  readonly fake: FakeLlmServer
  readonly tools: ToolServer
}>() {}

/** A node as `ParleyLive` assembles it, without HTTP, exposing `AgentTurns` and the repositories. */
const Node = Layer.unwrapScoped(
  Effect.gen(function*() {
    const fake = yield* makeFakeOpenAi
    const tools = yield* toolServer
    const { url } = yield* freshDatabase
    const runnerPort = yield* Effect.promise(freePort)
    return RuntimeLive.pipe(
      Layer.provide(DeploymentsLive),
      Layer.provide(ImportsLive),
      Layer.provide(AssistantsLive),
      Layer.provideMerge(AiAgentsLive),
      Layer.provide(WorkspaceAdminLive),
      Layer.provide([Readiness.Default, MetricsExposition.Default, IdentityLive]),
      Layer.provide(Admission.Default),
      Layer.provide(MigratorLive),
      Layer.provideMerge(SqlLive),
      Layer.provide(TracingLive),
      Layer.provide(DevMailer.layer),
      Layer.provide(Layer.setConfigProvider(configFrom({
        PARLEY_MASTER_KEY: TEST_MASTER_KEY,
        PARLEY_RUNNER_HOST: "127.0.0.1",
        PARLEY_RUNNER_PORT: String(runnerPort),
        PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32",
        PARLEY_LLM_PROVIDER: "openai-compatible",
        PARLEY_LLM_MODEL: "agent-model",
        PARLEY_LLM_BASE_URL: `${fake.origin}/v1`,
        PARLEY_LLM_API_KEY: "sk-agent-test",
        DATABASE_URL: url
      }))),
      Layer.merge(Layer.succeed(Harness, { fake, tools }))
    )
  })
)

let count = 0
const fresh = (label: string) => `${label}-${process.pid}-${++count}`

const httpTool = (name: string, url: string) => ({
  kind: "http",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
  method: "POST",
  url,
  headers: {},
  query: {},
  body: { kind: "json", template: { orderId: "{{orderId}}" } },
  timeoutSeconds: 5,
  maxResponseBytes: 65536,
  allowedDomains: [],
  name
})

/** A workspace with one agent (two HTTP tools: `lookup` answers, `broken` fails), and a principal acting in it. */
const setup = (maxSteps = 8) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { tools } = yield* Harness
    const workspaceId = uuidv7()
    const agentId = uuidv7()
    const slug = fresh("agent")
    yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
      VALUES (${workspaceId}, ${fresh("ws")}, 'Agents', now(), now())`
    yield* sql`INSERT INTO ai_agents (id, workspace_id, slug, name, description, instructions, model_settings,
        conversation, embed, created_at, updated_at)
      VALUES (${agentId}, ${workspaceId}, ${slug}, 'Support', '', 'You help {{name}} with orders.',
        ${JSON.stringify({ maxSteps })}::jsonb, '{}'::jsonb, '{}'::jsonb, now(), now())`
    for (const [name, path] of [["lookup", "/ok/lookup"], ["broken", "/fail/broken"]]) {
      const { name: _, ...config } = httpTool(name, `${tools.origin}${path}`)
      yield* sql`INSERT INTO ai_agent_tools (id, workspace_id, agent_id, name, description, config, created_at,
          updated_at)
        VALUES (${uuidv7()}, ${workspaceId}, ${agentId}, ${name}, ${`The ${name} tool`},
          ${JSON.stringify(config)}::jsonb, now(), now())`
    }
    const principal = {
      _tag: "ApiToken",
      tokenId: uuidv7(),
      displayName: "test token",
      workspaceId,
      role: "owner"
    } as unknown as Principal
    return { principal, slug, workspaceId, agentId: agentId as AiAgentId }
  })

/** The events of a `text/event-stream` body: each one's id (when it has one) and its data. */
const framesOf = (text: string): Array<{ readonly id?: string; readonly data: any }> =>
  text.split("\n\n").filter((frame) => frame.includes("event: ")).map((frame) => {
    const lines = frame.split("\n")
    const id = lines.find((line) => line.startsWith("id: "))?.slice("id: ".length)
    const event = lines.find((line) => line.startsWith("event: "))!.slice("event: ".length)
    const data = JSON.parse(lines.find((line) => line.startsWith("data: "))!.slice("data: ".length))
    expect(event).toBe(data.type)
    return id === undefined ? { data } : { id, data }
  })

const stepsOf = (conversationId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ turn: number; step: number; kind: string; data: any }>`SELECT turn, step, kind, data FROM ai_agent_steps
        WHERE conversation_id = ${conversationId} ORDER BY turn, step`
  )

const twoCalls = answer({
  toolCalls: [
    { id: "call_a", name: "lookup", input: { orderId: "A-1" } },
    { id: "call_b", name: "lookup", input: { orderId: "B-2" } }
  ],
  usage: { input: 30, output: 10 }
})

layer(Node, { excludeTestServices: true, timeout: 120_000 })("AgentConversation", (it) => {
  it.effect("a turn with two parallel tool calls stores each step once, in order, and its transcript", () =>
    Effect.gen(function*() {
      const { fake, tools } = yield* Harness
      const turns = yield* AgentTurns
      const { principal, slug } = yield* setup()
      fake.requests.length = 0
      tools.calls.length = 0
      fake.respond((request) =>
        request.body.messages.some((message: any) => message.role === "tool")
          ? answer({ text: "Both orders are on their way.", usage: { input: 50, output: 8 } })
          : twoCalls
      )
      const result = yield* turns.playground(principal, slug, {
        message: "Where are my orders?",
        variables: { name: "Ada" }
      }, "key-1")
      const conversationId = result.conversationId!
      expect(result.message.content).toBe("Both orders are on their way.")
      expect(result.finishReason).toBe("stop")
      expect(result.toolCalls.map((call) => [call.id, call.status, call.arguments])).toEqual([
        ["call_a", "succeeded", { orderId: "A-1" }],
        ["call_b", "succeeded", { orderId: "B-2" }]
      ])
      expect(result.usage).toEqual({ inputTokens: 80, outputTokens: 18, costUsd: null })
      // The model: two calls, the system prompt filled, the second with both tool results.
      expect(fake.requests.length).toBe(2)
      expect(fake.requests[0]!.body.messages[0]).toEqual({ role: "system", content: "You help Ada with orders." })
      expect(fake.requests[1]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id))
        .toEqual(["call_a", "call_b"])
      // The tools: each call once, with the key of its place.
      expect(tools.calls.map((call) => call.key).sort()).toEqual([
        toolIdempotencyKey({ conversationId, turn: 1, step: 1, callId: "call_a" }),
        toolIdempotencyKey({ conversationId, turn: 1, step: 2, callId: "call_b" })
      ].sort())
      const steps = yield* stepsOf(conversationId)
      expect(steps.map((step) => [step.step, step.kind])).toEqual([[0, "model"], [1, "tool"], [2, "tool"], [
        3,
        "model"
      ]])
      const sql = yield* SqlClient.SqlClient
      const messages = yield* sql<{ role: string; content: string }>`SELECT role, content FROM ai_agent_messages
        WHERE conversation_id = ${conversationId} ORDER BY turn, seq`
      expect(messages.map((message) => message.role)).toEqual(["user", "tool", "tool", "assistant"])
      const [conversation] = yield* sql<{ turns: number; inputTokens: string; title: string; status: string }>`
        SELECT turns, input_tokens, title, status FROM ai_agent_conversations WHERE id = ${conversationId}`
      expect(conversation).toMatchObject({ turns: 1, title: "Where are my orders?", status: "active" })
      expect(Number(conversation!.inputTokens)).toBe(80)

      // A repeat of the key: the stored answer, with no model or tool call.
      const again = yield* turns.playground(principal, slug, {
        message: "Where are my orders?",
        variables: { name: "Ada" }
      }, "key-1")
      expect(again).toEqual(result)
      expect(fake.requests.length).toBe(2)
      expect(tools.calls.length).toBe(2)

      // The same key with another body: refused.
      const reused = yield* Effect.either(
        turns.playground(principal, slug, { conversationId, message: "Something else" }, "key-1")
      )
      expect(Either.isLeft(reused) && reused.left._tag).toBe("IdempotencyKeyReused")

      // The next turn reads the first as history.
      fake.respond(() => answer({ text: "You're welcome." }))
      const next = yield* turns.playground(principal, slug, { conversationId, message: "Thanks" }, "key-2")
      expect(next.message.content).toBe("You're welcome.")
      const roles = fake.requests[2]!.body.messages.map((m: any) => m.role)
      expect(roles).toEqual(["system", "user", "assistant", "tool", "assistant", "tool", "assistant", "user"])
    }))

  it.effect("a draft edit reaches the next turn of a conversation at once (snapshots are reused by revision)", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const turns = yield* AgentTurns
      const tools = yield* AiAgentTools
      const sql = yield* SqlClient.SqlClient
      const { agentId, principal, slug } = yield* setup()
      fake.respond(() => answer({ text: "Noted." }))
      const offered = () => (fake.requests.at(-1)!.body.tools ?? []).map((tool: any) => tool.function.name).sort()
      const first = yield* turns.playground(principal, slug, { message: "Hello" }, fresh("key"))
      expect(offered()).toEqual(["broken", "lookup"])
      const conversationId = first.conversationId!
      // Twice at the same revision: the same tools.
      const second = yield* turns.playground(principal, slug, { conversationId, message: "Again" }, fresh("key"))
      expect(second.revision).toBe(first.revision)
      expect(offered()).toEqual(["broken", "lookup"])
      // Disabling a tool bumps the revision; the very next turn runs without it.
      const [broken] = yield* sql<{ id: string }>`SELECT id FROM ai_agent_tools
        WHERE agent_id = ${agentId} AND name = 'broken'`
      yield* tools.update(principal, slug, broken!.id as never, { enabled: false }, undefined, {
        ipAddress: null,
        userAgent: null,
        traceId: null
      })
      const third = yield* turns.playground(principal, slug, { conversationId, message: "And now?" }, fresh("key"))
      expect(third.revision).toBe(first.revision + 1)
      expect(offered()).toEqual(["lookup"])
    }))

  it.effect("a client that gives up mid-turn and retries with the same key gets the one stored turn", () =>
    Effect.gen(function*() {
      const { fake, tools } = yield* Harness
      const turns = yield* AgentTurns
      const { principal, slug } = yield* setup()
      fake.requests.length = 0
      tools.calls.length = 0
      fake.respond((request) =>
        request.body.messages.some((message: any) => message.role === "tool")
          ? answer({ text: "Done after a while.", delayMs: 1500 })
          : twoCalls
      )
      const request = { message: "Slow one" }
      const gaveUp = yield* Effect.fork(turns.playground(principal, slug, request, "abort-1"))
      while (fake.requests.length < 2) yield* Effect.sleep("20 millis")
      yield* Fiber.interrupt(gaveUp)
      const retried = yield* turns.playground(principal, slug, request, "abort-1")
      expect(retried.message.content).toBe("Done after a while.")
      expect(fake.requests.length).toBe(2)
      expect(tools.calls.length).toBe(2)
      const steps = yield* stepsOf(retried.conversationId!)
      expect(steps.map((step) => step.step)).toEqual([0, 1, 2, 3])
    }))

  it.effect("resume: a turn stored mid-way runs on from its steps, never repeating a stored call", () =>
    Effect.gen(function*() {
      const { fake, tools } = yield* Harness
      const turns = yield* AgentTurns
      const sql = yield* SqlClient.SqlClient
      const { agentId, principal, slug, workspaceId } = yield* setup()
      // A conversation whose first turn's owner died after the model step and the first tool call.
      const conversationId = uuidv7()
      yield* sql`INSERT INTO ai_agent_conversations (id, workspace_id, agent_id, channel, status, created_at,
          updated_at) VALUES (${conversationId}, ${workspaceId}, ${agentId}, 'playground', 'active', now(), now())`
      const agent = yield* Effect.flatMap(AiAgentRepo, (repo) => repo.findById(workspaceId as never, agentId))
      const { revision, snapshot } = yield* Effect.flatMap(AgentSnapshots, (s) => s.draft(Option_get(agent)))
      const request = yield* Schema.encode(AgentTurnRequest)({
        source: { kind: "draft" },
        message: "Where are my orders?",
        variables: {},
        metadata: {},
        endUserId: null,
        snapshot,
        revision,
        limits: { maxModelSteps: 8, tokenBudget: { remaining: null, onExceeded: "end" } },
        handoffTarget: null
      })
      const body = { conversationId, message: "Where are my orders?", variables: {}, endUserId: null }
      yield* sql`INSERT INTO ai_agent_turns (conversation_id, turn, idempotency_key, body_hash, request, status,
          attempts, epoch, trace_id, started_at)
        VALUES (${conversationId}, 1, 'resume-key', ${playgroundBodyHash(body)}, ${JSON.stringify(request)}::jsonb,
          'running', 1, 1, 'trace', now())`
      const model = {
        _tag: "ModelStep",
        index: 0,
        text: "",
        toolCalls: [
          { id: "call_a", name: "lookup", arguments: { orderId: "A-1" } },
          { id: "call_b", name: "lookup", arguments: { orderId: "B-2", gift_wrap: { paper_colour: "red" } } }
        ],
        finish: "tool-calls",
        usage: { inputTokens: 30, outputTokens: 10 },
        latencyMs: 5,
        model: "agent-model"
      }
      const first = {
        _tag: "ToolStep",
        index: 1,
        callId: "call_a",
        name: "lookup",
        status: "succeeded",
        result: { answer: "A-1 shipped", tracking_url: "https://track.example/A-1" },
        error: null,
        durationMs: 3
      }
      yield* sql`INSERT INTO ai_agent_steps (conversation_id, turn, step, kind, data, epoch) VALUES
        (${conversationId}, 1, 0, 'model', ${JSON.stringify(model)}::jsonb, 1),
        (${conversationId}, 1, 1, 'tool', ${JSON.stringify(first)}::jsonb, 1)`
      fake.requests.length = 0
      tools.calls.length = 0
      fake.respond(() => answer({ text: "A-1 shipped; B-2 too.", usage: { input: 40, output: 6 } }))

      const result = yield* turns.playground(principal, slug, {
        conversationId: conversationId as never,
        message: "Where are my orders?"
      }, "resume-key")
      expect(result.message.content).toBe("A-1 shipped; B-2 too.")
      // One model call (the final one): the stored model step was not made again.
      expect(fake.requests.length).toBe(1)
      expect(fake.requests[0]!.body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id))
        .toEqual(["call_a", "call_b"])
      // Only the pending call ran, once, with its place's key.
      expect(tools.calls.map((call) => call.key)).toEqual([
        toolIdempotencyKey({ conversationId, turn: 1, step: 2, callId: "call_b" })
      ])
      const steps = yield* stepsOf(conversationId)
      expect(steps.map((step) => [step.step, step.kind])).toEqual([[0, "model"], [1, "tool"], [2, "tool"], [
        3,
        "model"
      ]])
      expect(steps[1]!.data.result).toEqual({ answer: "A-1 shipped", tracking_url: "https://track.example/A-1" })
      expect(result.toolCalls.map((call) => call.id)).toEqual(["call_a", "call_b"])
      // JSON read back from the steps keeps its keys as written (snake_case too): the model
      // sees the stored call's arguments and the stored result exactly, and so does the client.
      const resent = fake.requests[0]!.body.messages
      const assistant = resent.find((m: any) => m.role === "assistant" && m.tool_calls)
      expect(JSON.parse(assistant.tool_calls[1].function.arguments)).toEqual({
        orderId: "B-2",
        gift_wrap: { paper_colour: "red" }
      })
      const toolA = resent.find((m: any) => m.role === "tool" && m.tool_call_id === "call_a")
      expect(JSON.parse(toolA.content)).toEqual({ answer: "A-1 shipped", tracking_url: "https://track.example/A-1" })
      expect(result.toolCalls[1]!.arguments).toEqual({ orderId: "B-2", gift_wrap: { paper_colour: "red" } })
    }))

  it.effect("a failing tool is fed back to the model; the step limit stops a turn that keeps calling tools", () =>
    Effect.gen(function*() {
      const { fake, tools } = yield* Harness
      const turns = yield* AgentTurns
      const { principal, slug } = yield* setup()
      fake.requests.length = 0
      tools.calls.length = 0
      fake.respond((request) =>
        request.body.messages.some((message: any) => message.role === "tool")
          ? answer({ text: "The order system is down, sorry." })
          : answer({ toolCalls: [{ id: "call_x", name: "broken", input: { orderId: "A-1" } }] })
      )
      const failed = yield* turns.playground(principal, slug, { message: "Order A-1?" }, "fail-1")
      expect(failed.toolCalls[0]).toMatchObject({ id: "call_x", status: "failed", result: null })
      expect(failed.toolCalls[0]!.error).toContain("HTTP 500")
      const toolMessage = fake.requests[1]!.body.messages.find((m: any) => m.role === "tool")
      expect(toolMessage.content).toContain("HTTP 500")
      expect(failed.message.content).toBe("The order system is down, sorry.")

      const limited = yield* setup(2)
      fake.requests.length = 0
      fake.respond(() =>
        answer({
          text: "Checking.",
          toolCalls: [{ id: `call_${fake.requests.length}`, name: "lookup", input: { orderId: "A-1" } }]
        })
      )
      const stopped = yield* turns.playground(limited.principal, limited.slug, { message: "Loop forever" }, "limit-1")
      expect(stopped.finishReason).toBe("max-steps")
      expect(fake.requests.length).toBe(2)
      expect(stopped.toolCalls.length).toBe(1)
    }))

  it.effect("a model provider that fails ends the turn with a stored typed failure; the conversation goes on", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const turns = yield* AgentTurns
      const { principal, slug } = yield* setup()
      fake.respond(() => answer({ text: "Hello." }))
      const first = yield* turns.playground(principal, slug, { message: "Hi" }, "up-0")
      const conversationId = first.conversationId!
      fake.requests.length = 0
      fake.respond(() => status(400, { error: { message: "bad request", type: "invalid_request_error", code: null } }))
      const failed = yield* Effect.either(
        turns.playground(principal, slug, { conversationId, message: "Again" }, "up-1")
      )
      expect(Either.isLeft(failed) && failed.left._tag).toBe("UpstreamFailed")
      const calls = fake.requests.length
      expect(calls).toBeGreaterThan(0)
      const repeat = yield* Effect.either(
        turns.playground(principal, slug, { conversationId, message: "Again" }, "up-1")
      )
      expect(repeat).toEqual(failed)
      expect(fake.requests.length).toBe(calls)
      fake.respond(() => answer({ text: "Back." }))
      const next = yield* turns.playground(principal, slug, { conversationId, message: "Still there?" }, "up-2")
      expect(next.message.content).toBe("Back.")
    }))

  it.effect("remember keeps an end user's fact; later turns of that user see it in the system prompt", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const turns = yield* AgentTurns
      const sql = yield* SqlClient.SqlClient
      const { agentId, principal, slug, workspaceId } = yield* setup()
      yield* sql`INSERT INTO ai_agent_tools (id, workspace_id, agent_id, name, description, config, created_at,
          updated_at)
        VALUES (${uuidv7()}, ${workspaceId}, ${agentId}, 'remember', null,
          ${JSON.stringify({ kind: "builtin", builtin: "remember" })}::jsonb, now(), now())`
      const remembering = (content: string) => (request: any) =>
        request.body.messages.some((message: any) => message.role === "tool")
          ? answer({ text: "Noted." })
          : answer({
            toolCalls: [{ id: "call_m", name: "remember", input: { key: "contact.channel", content } }]
          })
      fake.respond(remembering("Prefers email over phone"))
      const kept = yield* turns.playground(
        principal,
        slug,
        { message: "Email me, please", endUserId: "ada" as never },
        "m-1"
      )
      expect(kept.toolCalls.map((call) => [call.name, call.status, call.result])).toEqual([
        ["remember", "succeeded", { kept: true, key: "contact.channel", replaced: false }]
      ])
      const facts = yield* sql<{ scope: string; endUserId: string; key: string; content: string; source: string }>`
        SELECT scope, end_user_id, key, content, source FROM ai_agent_memory WHERE agent_id = ${agentId}`
      expect(facts).toEqual([{
        scope: "end-user",
        endUserId: "ada",
        key: "contact.channel",
        content: "Prefers email over phone",
        source: "conversation"
      }])

      // A later conversation of the same end user: the fact is in the system prompt; another user's is not.
      fake.requests.length = 0
      fake.respond(() => answer({ text: "Sure." }))
      yield* turns.playground(
        principal,
        slug,
        { message: "How will you contact me?", endUserId: "ada" as never },
        "m-2"
      )
      expect(fake.requests[0]!.body.messages[0].content).toContain("contact.channel: Prefers email over phone")
      yield* turns.playground(
        principal,
        slug,
        { message: "How will you contact me?", endUserId: "bob" as never },
        "m-3"
      )
      expect(fake.requests[1]!.body.messages[0].content).not.toContain("Prefers email")

      // Without a known end user, an end-user fact is not kept: the model reads why, the turn goes on.
      fake.respond(remembering("Likes tea"))
      const anonymous = yield* turns.playground(principal, slug, { message: "I like tea" }, "m-4")
      expect(anonymous.toolCalls[0]).toMatchObject({ name: "remember", status: "failed" })
      expect(anonymous.toolCalls[0]!.error).toContain("no known end user")
      expect(anonymous.message.content).toBe("Noted.")
      const count = yield* sql<
        { n: number }
      >`SELECT count(*)::int AS n FROM ai_agent_memory WHERE agent_id = ${agentId}`
      expect(count[0]!.n).toBe(1)
    }))

  it.effect("streamed: the stored steps as tool events in order, then the reply and the JSON form's result", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const streams = yield* AgentTurnStreams
      const turns = yield* AgentTurns
      const { principal, slug } = yield* setup()
      fake.respond((request) =>
        request.body.messages.some((message: any) => message.role === "tool")
          ? answer({ text: "Both shipped." })
          : twoCalls
      )
      const asked = fake.requests.length
      const request = { message: "Where are my orders?" }
      const streamed = (lastEventId?: string) =>
        Effect.flatMap(
          streams.playground(lastEventId, principal, slug, request, "stream-1"),
          (stream) => Effect.map(Stream.runCollect(stream), (chunks) => framesOf(Chunk.toArray(chunks).join("")))
        )
      const frames = yield* streamed()
      const events = frames.map((frame) => frame.data)
      // The reply's text as the model wrote it: word by word (the fake streams words).
      expect(events.map((event) => event.type)).toEqual([
        "tool.call",
        "tool.call",
        "tool.result",
        "tool.result",
        "message.delta",
        "message.delta",
        "message.done"
      ])
      // Every event has an id that says how far the stream has got: step and tool event, step and text offset.
      expect(frames.map((frame) => frame.id)).toEqual(["s0.0", "s0.1", "s1.0", "s2.0", "m3.5", "m3.13", "done"])
      expect(events[0]).toMatchObject({ id: "call_a", name: "lookup", arguments: { orderId: "A-1" } })
      expect(events[0].toolId).not.toBeNull()
      expect(events.slice(2, 4).map((event) => [event.id, event.status])).toEqual([
        ["call_a", "succeeded"],
        ["call_b", "succeeded"]
      ])
      expect(events.slice(4, 6)).toEqual([
        { type: "message.delta", delta: "Both " },
        { type: "message.delta", delta: "shipped." }
      ])
      // The model was asked to stream; the JSON form of the same key answers the same stored turn.
      expect(fake.requests.slice(asked).map((request) => request.body.stream)).toEqual([true, true])
      const json = yield* turns.playground(principal, slug, request, "stream-1")
      expect(events[6].result).toEqual(JSON.parse(JSON.stringify(Schema.encodeSync(PlaygroundResult)(json))))
      // A repeat of the key streams the stored turn again, from its stored steps, the reply in one piece.
      const again = yield* streamed()
      expect(again.filter((frame) => frame.data.type === "message.delta")).toEqual([
        { id: "m3.13", data: { type: "message.delta", delta: "Both shipped." } }
      ])
      expect(again.map((frame) => frame.id)).toEqual(["s0.0", "s0.1", "s1.0", "s2.0", "m3.13", "done"])
      // With Last-Event-ID, only what the lost stream had not shown: the rest of the text, the rest of the events.
      const afterWord = yield* streamed("m3.5")
      expect(afterWord).toEqual([
        { id: "m3.13", data: { type: "message.delta", delta: "shipped." } },
        { id: "done", data: events[6] }
      ])
      const afterCalls = yield* streamed("s0.1")
      expect(afterCalls.map((frame) => frame.id)).toEqual(["s1.0", "s2.0", "m3.13", "done"])
      expect(afterCalls[2]!.data.delta).toBe("Both shipped.")
      expect((yield* streamed("done")).map((frame) => frame.id)).toEqual(["done"])
      // An id this server did not write is ignored: the whole turn again. None of it ran the model again.
      expect((yield* streamed("m99999999999.1")).map((frame) => frame.id)).toEqual(again.map((frame) => frame.id))
      expect(fake.requests.length - asked).toBe(2)
    }))

  it.effect("derive-tasks asks the workspace's model for JSON tasks; a useless or failed answer falls back to the outline", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const agents = yield* AiAgents
      const { principal, slug } = yield* setup()
      const proposal = {
        tasks: [
          { title: "Find the order", goal: "Look the order up by its number.", successCriteria: ["Order found"] },
          { title: "Explain the delay", goal: "Say why it is late.", successCriteria: ["Reason given"] }
        ]
      }
      fake.requests.length = 0
      fake.respond(() => answer({ text: "```json\n" + JSON.stringify(proposal) + "\n```" }))
      const request = { description: "Help customers whose orders are late.", maxTasks: 5 }
      const derived = yield* agents.deriveTasks(principal, slug, request)
      expect(derived).toMatchObject({ method: "llm", model: { provider: "openai-compatible", model: "agent-model" } })
      expect(derived.tasks.map((task) => task.title)).toEqual(["Find the order", "Explain the delay"])
      // The agent's instructions went along as context.
      expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain("You help {{name}} with orders.")

      fake.respond(() => answer({ text: "Sorry, I cannot do that." }))
      const useless = yield* agents.deriveTasks(principal, slug, request)
      expect(useless.method).toBe("outline")
      expect(useless.model).toBeNull()
      expect(useless.tasks.length).toBeGreaterThan(0)

      fake.respond(() => status(400, { error: { message: "bad request", type: "invalid_request_error", code: null } }))
      expect((yield* agents.deriveTasks(principal, slug, request)).method).toBe("outline")
    }))

  it.effect("hostile input: NUL and lone surrogates are refused before anything is stored; transcripts run stateless", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const turns = yield* AgentTurns
      const sql = yield* SqlClient.SqlClient
      const { agentId, principal, slug } = yield* setup()
      for (const message of ["bad\u0000byte", "half \uD800 a pair"]) {
        const refused = yield* Effect.either(turns.playground(principal, slug, { message }))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("ValidationFailed")
      }
      const variables = yield* Effect.either(
        turns.playground(principal, slug, { message: "ok", variables: { name: "x\u0000" } })
      )
      expect(Either.isLeft(variables) && variables.left._tag).toBe("ValidationFailed")
      const stored = yield* sql`SELECT id FROM ai_agent_conversations WHERE agent_id = ${agentId}`
      expect(stored.length).toBe(0)

      // A model answer with NUL and a lone surrogate is stored with U+FFFD instead.
      fake.respond(() => answer({ text: "odd\u0000text \uDC00" }))
      const odd = yield* turns.playground(principal, slug, { message: "Say something odd" })
      expect(odd.message.content).toBe("odd\uFFFDtext \uFFFD")

      // The transcript form: stateless, nothing stored, its last message must be the user's.
      fake.respond(() => answer({ text: "Stateless." }))
      const transcript: typeof PlaygroundRequest.Type = {
        messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }, {
          role: "user",
          content: "Again"
        }]
      }
      const before = (yield* sql`SELECT count(*)::int AS n FROM ai_agent_conversations`)[0]!.n
      const ran = yield* turns.playground(principal, slug, transcript)
      expect(ran).toMatchObject({ conversationId: null, message: { id: null, content: "Stateless." } })
      expect((yield* sql`SELECT count(*)::int AS n FROM ai_agent_conversations`)[0]!.n).toBe(before)
      const wrong = yield* Effect.either(turns.playground(principal, slug, {
        messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }]
      }))
      expect(Either.isLeft(wrong) && wrong.left._tag).toBe("ValidationFailed")
    }))
})

const Option_get = <A>(option: { readonly _tag: "Some"; readonly value: A } | { readonly _tag: "None" }): A => {
  if (option._tag === "None") throw new Error("expected a value")
  return option.value
}
