/**
 * The calls out of workflow nodes (`WorkflowCallouts`) on a real node and
 * database: `http` through a workspace tool to a loopback echo server (an
 * idempotency key per execution, secrets masked, failures typed), `llm` with
 * the embedded offline model and with a fake OpenAI-compatible server
 * answering JSON for an output schema, and `ai-agent` turns of a published
 * agent's live version, once per key.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { v7 as uuidv7 } from "uuid"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import type { Principal } from "../../../src/domain/identity/Principal.js"
import type { JsonValue } from "../../../src/domain/Json.js"
import { AgentLlmSettingsPatch } from "../../../src/domain/settings/AgentLlmSettings.js"
import type { CallContext, CalloutFailure } from "../../../src/domain/workflows/engine/WorkflowHooks.js"
import type { WorkflowNodeId } from "../../../src/domain/workflows/Ids.js"
import type { SecretName, WorkspaceToolId } from "../../../src/domain/workspace/Ids.js"
import { WorkspaceToolCreate } from "../../../src/domain/workspace/WorkspaceTool.js"
import { MetricsExposition } from "../../../src/observability/MetricsExposition.js"
import { TracingLive } from "../../../src/observability/Tracing.js"
import { MigratorLive, SqlLive } from "../../../src/persistence/Sql.js"
import * as DevMailer from "../../../src/providers/DevMailer.js"
import { Admission } from "../../../src/services/Admission.js"
import { AgentReleases } from "../../../src/services/aiAgents/AgentReleases.js"
import { AiAgents } from "../../../src/services/aiAgents/AiAgents.js"
import { AiAgentsLive } from "../../../src/services/aiAgents/AiAgentsLive.js"
import { AssistantsLive } from "../../../src/services/assistants/AssistantsLive.js"
import { DeploymentsLive } from "../../../src/services/deployments/DeploymentsLive.js"
import { IdentityLive } from "../../../src/services/identity/IdentityLive.js"
import { ImportsLive } from "../../../src/services/imports/ImportsLive.js"
import { Readiness } from "../../../src/services/Readiness.js"
import { RuntimeLive } from "../../../src/services/runtime/RuntimeLive.js"
import { AgentLlm } from "../../../src/services/settings/AgentLlm.js"
import {
  type CalloutRun,
  httpIdempotencyKey,
  WorkflowCallouts
} from "../../../src/services/workflows/WorkflowCallouts.js"
import { Vault } from "../../../src/services/workspace/Vault.js"
import { WorkspaceAdminLive } from "../../../src/services/workspace/WorkspaceAdminLive.js"
import { WorkspaceTools } from "../../../src/services/workspace/WorkspaceTools.js"
import { type EchoServer, echoServer } from "../../support/EchoServer.js"
import { answer, type FakeLlmServer, status } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { freePort } from "../../support/ParleyProcess.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { configFrom, TEST_MASTER_KEY } from "../../support/TestServer.js"

class Harness extends Context.Tag("test/WorkflowCalloutsHarness")<Harness, {
  readonly fake: FakeLlmServer
  readonly echo: EchoServer
}>() {}

/** A node as `ParleyLive` assembles it, without HTTP, with `WorkflowCallouts` on top; the model is the offline default. */
const Node = Layer.unwrapScoped(
  Effect.gen(function*() {
    const fake = yield* makeFakeOpenAi
    const echo = yield* echoServer
    const { url } = yield* freshDatabase
    const runnerPort = yield* Effect.promise(freePort)
    return WorkflowCallouts.Default.pipe(
      Layer.provideMerge(RuntimeLive),
      Layer.provide(DeploymentsLive),
      Layer.provide(ImportsLive),
      Layer.provide(AssistantsLive),
      Layer.provideMerge(AiAgentsLive),
      Layer.provideMerge(WorkspaceAdminLive),
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
        DATABASE_URL: url
      }))),
      Layer.merge(Layer.succeed(Harness, { fake, echo }))
    )
  })
)

let count = 0
const fresh = (label: string) => `${label}-${process.pid}-${++count}`
const origin = { ipAddress: null, userAgent: null, traceId: null }
const context = (key: string, attempt = 1): CallContext => ({
  nodeId: key.split("#")[0] as WorkflowNodeId,
  key,
  attempt
})

/** A new workspace, a principal acting in it, and calls out bound to a run of it. */
const workspace = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const callouts = yield* WorkflowCallouts
  const workspaceId = uuidv7()
  yield* sql`INSERT INTO workspaces (id, slug, name, created_at, updated_at)
    VALUES (${workspaceId}, ${fresh("ws")}, 'Workflows', now(), now())`
  const principal = {
    _tag: "ApiToken",
    tokenId: uuidv7(),
    displayName: "test token",
    workspaceId,
    role: "owner"
  } as unknown as Principal
  const runOf = (idempotencyPrefix = fresh("run")): CalloutRun & ReturnType<typeof callouts.forRun> => {
    const run: CalloutRun = {
      workspaceId: principal.workspaceId,
      usedBy: { kind: "chain", id: "orders" },
      actor: { kind: "system" },
      idempotencyPrefix
    }
    return { ...run, ...callouts.forRun(run) }
  }
  return { principal, workspaceId, runOf }
}).pipe(Effect.orDie)

/** A workspace tool posting `{ orderId }` to `url`, with `more` fields. */
const toolIn = (principal: Principal, url: string, more: Record<string, unknown> = {}) =>
  Effect.flatMap(WorkspaceTools, (tools) =>
    tools.create(
      principal,
      Schema.decodeUnknownSync(WorkspaceToolCreate)({
        name: fresh("order").replace(/-/g, "_"),
        description: "Posts an order",
        inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        method: "POST",
        url,
        headers: {},
        query: {},
        body: { kind: "json", template: { orderId: "{{input.orderId}}" } },
        timeoutSeconds: 5,
        maxResponseBytes: 65536,
        allowedDomains: [],
        ...more
      }),
      origin
    )).pipe(Effect.map((tool) => tool.id as WorkspaceToolId), Effect.orDie)

/** An agent of the workspace, published (its live version 1) unless told. */
const agentIn = (principal: Principal, publish = true) =>
  Effect.gen(function*() {
    const slug = fresh("helper")
    yield* (yield* AiAgents).create(
      principal,
      Schema.decodeUnknownSync(AiAgentCreate)({ slug, name: "Helper", instructions: "Help the {{team}} team." }),
      origin
    )
    if (publish) yield* (yield* AgentReleases).publish(principal, slug, undefined, undefined, origin)
    return slug
  }).pipe(Effect.orDie)

/** Turns and messages stored for the agent `slug`'s conversations. */
const storedOf = (slug: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ conversations: number; turns: number; messages: number; channels: string }>`
      SELECT count(DISTINCT c.id)::int AS conversations,
        (SELECT count(*)::int FROM ai_agent_turns t JOIN ai_agent_conversations tc ON tc.id = t.conversation_id
          JOIN ai_agents ta ON ta.id = tc.agent_id WHERE ta.slug = ${slug}) AS turns,
        (SELECT count(*)::int FROM ai_agent_messages m JOIN ai_agent_conversations mc ON mc.id = m.conversation_id
          JOIN ai_agents ma ON ma.id = mc.agent_id WHERE ma.slug = ${slug}) AS messages,
        coalesce(string_agg(DISTINCT c.channel, ','), '') AS channels
      FROM ai_agent_conversations c JOIN ai_agents a ON a.id = c.agent_id WHERE a.slug = ${slug}`
    return row!
  }).pipe(Effect.orDie)

const failed = (effect: Effect.Effect<JsonValue, CalloutFailure>) =>
  Effect.map(Effect.flip(effect), (failure) => {
    expect(failure._tag).toBe("CalloutFailure")
    return failure.message
  })

layer(Node, { excludeTestServices: true, timeout: 120_000 })("WorkflowCallouts", (it) => {
  it.effect("http: the tool is called with the arguments and one idempotency key per execution", () =>
    Effect.gen(function*() {
      const { echo } = yield* Harness
      const { principal, runOf } = yield* workspace
      const toolId = yield* toolIn(principal, echo.url("/echo"))
      const run = runOf()
      const call = { toolId, arguments: { orderId: "A-1" } }

      const output = (yield* run.http(call, context("notify#1"))) as any
      expect(output.status).toBe(200)
      expect(output.headers["content-type"]).toBe("application/json")
      // A JSON answer is parsed: the echo of what was sent.
      expect(output.body.method).toBe("POST")
      expect(JSON.parse(output.body.body)).toEqual({ orderId: "A-1" })
      const first = output.body.headers["idempotency-key"]
      expect(first).toBe(httpIdempotencyKey(run, "notify#1"))
      expect(first).toMatch(/^pwh_[0-9a-f]{60}$/)

      // A retry of the same execution carries the same key; another execution, or another run, another one.
      const retried = (yield* run.http(call, context("notify#1", 2))) as any
      expect(retried.body.headers["idempotency-key"]).toBe(first)
      const next = (yield* run.http(call, context("notify#2"))) as any
      expect(next.body.headers["idempotency-key"]).not.toBe(first)
      const other = (yield* runOf().http(call, context("notify#1"))) as any
      expect(other.body.headers["idempotency-key"]).not.toBe(first)
      // The same run prefix again (a replay on another node) computes the same key.
      const replayed = (yield* runOf(run.idempotencyPrefix).http(call, context("notify#1"))) as any
      expect(replayed.body.headers["idempotency-key"]).toBe(first)
    }))

  it.effect("http: a text answer is its text; secrets are masked in what comes back", () =>
    Effect.gen(function*() {
      const { echo } = yield* Harness
      const { principal, runOf } = yield* workspace
      const vault = yield* Vault
      const secret = `sk-callouts-${crypto.randomUUID()}`
      yield* vault.create(
        principal,
        { name: "ORDERS_KEY" as SecretName, description: "", value: Redacted.make(secret) },
        origin
      ).pipe(Effect.orDie)
      const echoing = yield* toolIn(principal, echo.url("/echo"), {
        headers: { authorization: { secret: "ORDERS_KEY", prefix: "Bearer " } }
      })
      const output = yield* runOf().http({ toolId: echoing, arguments: { orderId: "B-2" } }, context("call#1"))
      expect(JSON.stringify(output)).not.toContain(secret)
      expect(echo.requests.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`)

      const texty = yield* toolIn(principal, echo.url("/slow"), { query: { ms: { value: "1" } } })
      expect(yield* runOf().http({ toolId: texty, arguments: { orderId: "C-3" } }, context("call#1"))).toMatchObject({
        status: 200,
        body: "slow"
      })
    }))

  it.effect("http: an error status, a missing tool, bad arguments and a refused address are CalloutFailures", () =>
    Effect.gen(function*() {
      const { echo } = yield* Harness
      const { principal, runOf } = yield* workspace
      const run = runOf()
      const broken = yield* toolIn(principal, echo.url("/status"), { query: { code: { value: "500" } } })
      expect(yield* failed(run.http({ toolId: broken, arguments: { orderId: "A-1" } }, context("call#1"))))
        .toMatch(/answered HTTP 500: status/)
      const missing = yield* toolIn(principal, echo.url("/nowhere"))
      expect(yield* failed(run.http({ toolId: missing, arguments: { orderId: "A-1" } }, context("call#1"))))
        .toMatch(/answered HTTP 404/)

      const gone = uuidv7() as WorkspaceToolId
      expect(yield* failed(run.http({ toolId: gone, arguments: {} }, context("call#1"))))
        .toBe(`No workspace tool ${gone} in this workspace: it was deleted, or never existed`)

      const echoing = yield* toolIn(principal, echo.url("/echo"))
      expect(yield* failed(run.http({ toolId: echoing, arguments: { orderId: 7 } }, context("call#1"))))
        .toMatch(/^The arguments do not fit the input of the tool order_.*: \/orderId/)

      const elsewhere = yield* toolIn(principal, "http://10.255.255.1/orders")
      expect(yield* failed(run.http({ toolId: elsewhere, arguments: { orderId: "A-1" } }, context("call#1"))))
        .toMatch(/^The tool order_\S+ could not be reached: /)
    }))

  it.effect("llm: the offline model answers text; an output schema it cannot satisfy is a CalloutFailure", () =>
    Effect.gen(function*() {
      const { runOf } = yield* workspace
      const run = runOf()
      const call = {
        model: undefined,
        system: "Be brief.",
        prompt: "Where is order A-1?",
        temperature: 0,
        maxOutputTokens: 100,
        outputSchema: undefined
      }
      const text = yield* run.llm(call, context("ask#1"))
      expect(text).toBe(
        "(offline model) You said: \"Where is order A-1?\". Configure a language model in the workspace's agent-llm " +
          "settings for real answers."
      )
      // The node may name its model: through the workspace's connection for that provider.
      expect(yield* run.llm({ ...call, model: { provider: "offline", model: "other" } }, context("ask#2")))
        .toBe(text)
      expect(
        yield* failed(run.llm({ ...call, model: { provider: "openai", model: "gpt-4.1-mini" } }, context("ask#3")))
      )
        .toBe("The model is openai (gpt-4.1-mini), but the workspace has no openai connection")
      expect(yield* failed(run.llm({ ...call, outputSchema: { type: "object" } }, context("ask#4"))))
        .toMatch(/^The model's answer is not JSON/)
    }))

  it.effect("llm: with an output schema the answer's JSON is checked; a wrong one is a CalloutFailure", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const { principal, runOf } = yield* workspace
      yield* (yield* AgentLlm).update(
        principal,
        Schema.decodeUnknownSync(AgentLlmSettingsPatch)({
          primary: { provider: "openai-compatible", baseUrl: `${fake.origin}/v1`, model: "json-model" }
        }),
        origin
      ).pipe(Effect.orDie)
      const run = runOf()
      const outputSchema = {
        type: "object",
        properties: { status: { type: "string", enum: ["shipped", "pending"] }, days: { type: "integer" } },
        required: ["status"]
      }
      const call = {
        model: undefined,
        system: "You track orders.",
        prompt: "Where is order A-1?",
        temperature: 0.1,
        maxOutputTokens: 50,
        outputSchema
      }
      fake.requests.length = 0
      fake.respond(() => answer({ text: "```json\n{\"status\": \"shipped\", \"days\": 2}\n```" }))
      expect(yield* run.llm(call, context("classify#1"))).toEqual({ status: "shipped", days: 2 })
      const sent = fake.requests[0]!.body
      expect(sent.model).toBe("json-model")
      expect(sent.temperature).toBe(0.1)
      expect(sent.max_tokens).toBe(50)
      expect(sent.messages[0].role).toBe("system")
      expect(sent.messages[0].content).toContain("You track orders.")
      expect(sent.messages[0].content).toContain(JSON.stringify(outputSchema))
      expect(sent.messages[1]).toEqual({ role: "user", content: "Where is order A-1?" })

      fake.respond(() => answer({ text: "{\"status\": \"lost\"}" }))
      expect(yield* failed(run.llm(call, context("classify#2"))))
        .toMatch(/^The model's answer does not satisfy the output schema: \/status /)
      fake.respond(() => answer({ text: "It has shipped." }))
      expect(yield* failed(run.llm(call, context("classify#3")))).toMatch(/^The model's answer is not JSON/)
      fake.respond(() => status(400, { error: { message: "bad request", type: "invalid_request_error" } }))
      expect(yield* failed(run.llm(call, context("classify#4")))).toMatch(/^The language model failed: /)
    }))

  it.effect("ai-agent: the live version answers, once per key, in the run's own conversation", () =>
    Effect.gen(function*() {
      const { principal, runOf } = yield* workspace
      const slug = yield* agentIn(principal)
      const run = runOf()
      const call = { agentSlug: slug as never, message: "Where is order A-1?", context: { team: "sales" } }

      const output = (yield* run.agent(call, context("ask#1"))) as any
      expect(output).toMatchObject({ outcome: "answered", handoff: null, version: 1 })
      expect(output.reply).toContain("You said: \"Where is order A-1?\"")
      expect(yield* storedOf(slug)).toEqual({ conversations: 1, turns: 1, messages: 2, channels: "workflow" })

      // The same key again (a retry, a replay): the stored turn, not a second one.
      expect(yield* run.agent(call, context("ask#1"))).toEqual(output)
      expect(yield* runOf(run.idempotencyPrefix).agent(call, context("ask#1"))).toEqual(output)
      expect((yield* storedOf(slug)).turns).toBe(1)

      // Another execution of the run: a second turn in the same conversation.
      const next = (yield* run.agent({ ...call, message: "And order B-2?" }, context("ask#2"))) as any
      expect(next.conversationId).toBe(output.conversationId)
      expect(yield* storedOf(slug)).toEqual({ conversations: 1, turns: 2, messages: 4, channels: "workflow" })

      // Another run: a conversation of its own.
      const other = (yield* runOf().agent(call, context("ask#1"))) as any
      expect(other.conversationId).not.toBe(output.conversationId)
      expect((yield* storedOf(slug)).conversations).toBe(2)
    }))

  it.effect("ai-agent: an agent that does not exist or has no live version is a CalloutFailure", () =>
    Effect.gen(function*() {
      const { principal, runOf } = yield* workspace
      const draft = yield* agentIn(principal, false)
      const run = runOf()
      const call = (slug: string) => ({ agentSlug: slug as never, message: "Hello", context: {} })
      expect(yield* failed(run.agent(call(draft), context("ask#1"))))
        .toBe(`The AI agent ${draft} has no live version: publish it first`)
      expect(yield* failed(run.agent(call("nobody-here"), context("ask#1"))))
        .toBe("No AI agent nobody-here in this workspace")
      expect(yield* failed(run.agent({ ...call(draft), message: "   " }, context("ask#1"))))
        .toMatch(/^The message to the AI agent \S+ cannot be sent: /)
      expect((yield* storedOf(draft)).turns).toBe(0)
    }))

  it.effect("ai-agent: a turn that failed is answered again on a retry of its attempt; the next attempt asks anew", () =>
    Effect.gen(function*() {
      const { fake } = yield* Harness
      const { principal, runOf } = yield* workspace
      yield* (yield* AgentLlm).update(
        principal,
        Schema.decodeUnknownSync(AgentLlmSettingsPatch)({
          primary: { provider: "openai-compatible", baseUrl: `${fake.origin}/v1`, model: "agent-model" }
        }),
        origin
      ).pipe(Effect.orDie)
      const slug = yield* agentIn(principal)
      const run = runOf()
      const call = { agentSlug: slug as never, message: "Hello", context: {} }
      fake.respond(() => status(400, { error: { message: "bad request", type: "invalid_request_error" } }))
      expect(yield* failed(run.agent(call, context("ask#1")))).toMatch(new RegExp(`^The AI agent ${slug} failed`))
      fake.respond(() => answer({ text: "Hello from the agent." }))
      // The first attempt's turn is stored as failed: asked again, it answers the same.
      expect(yield* failed(run.agent(call, context("ask#1")))).toMatch(/failed to answer/)
      // The second attempt asks under the next key; the replay of both attempts makes no third turn.
      expect(yield* run.agent(call, context("ask#1", 2))).toMatchObject({ reply: "Hello from the agent." })
      expect(yield* runOf(run.idempotencyPrefix).agent(call, context("ask#1", 2))).toMatchObject({
        reply: "Hello from the agent."
      })
      expect((yield* storedOf(slug)).turns).toBe(2)
    }))
})
