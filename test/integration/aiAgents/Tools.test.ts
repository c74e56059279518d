/**
 * An AI agent's tools over HTTP against the real database and a loopback
 * echo server: CRUD of the three kinds and their typed errors (an http tool
 * without a description, a template naming no input property, a secret not
 * in the vault, a workspace tool that does not exist, `fixedInput` the tool
 * does not take), the workspace tool's delete refused naming the agent, the
 * secret references recorded, `If-Match`, and the test call: the secret
 * reaches the server and is masked in the answer; a workspace tool runs
 * with the agent's overrides; `remember` and `handoff` run dry, and
 * `knowledge_search` of an agent with no document finds nothing; a private
 * address is refused without the allow-list. Also hostile input, roles and
 * another workspace's ids.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { AiAgentToolId } from "../../../src/domain/aiAgents/Ids.js"
import { AiAgentToolCreate, AiAgentToolPatch } from "../../../src/domain/aiAgents/Tool.js"
import { as, signUp } from "../../support/Accounts.js"
import { echoServer } from "../../support/EchoServer.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { freshValue, secretCreate } from "../../support/Vault.js"
import { agentRow, revisionOf } from "./AgentRows.js"

let count = 0
const fresh = (label: string) => `${label}_${process.pid}_${++count}`
const noHeaders = { headers: {} } as const

const inputSchema = {
  type: "object" as const,
  properties: { orderId: { type: "string", maxLength: 64 }, tenant: { type: "string" } },
  required: ["orderId"]
}

/** A tool body with the defaults filled, as the typed client wants it. */
const full = (body: unknown) => Schema.decodeUnknownSync(AiAgentToolCreate)(body)
const patchOf = (body: unknown) => Schema.decodeUnknownSync(AiAgentToolPatch)(body)

const rawHttpTool = (url: string, more: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({
  name: fresh("lookup"),
  description: "Looks an order up",
  config: { kind: "http", inputSchema, method: "GET", url, ...config },
  ...more
})
const httpTool = (url: string, more: Record<string, unknown> = {}, config: Record<string, unknown> = {}) =>
  full(rawHttpTool(url, more, config))

const sharedTool = (url: string, more: Record<string, unknown> = {}) =>
  ({
    name: fresh("shared"),
    description: "A shared order lookup",
    inputSchema,
    method: "GET",
    url,
    headers: {},
    query: {},
    body: null,
    timeoutSeconds: 10,
    maxResponseBytes: 1_048_576,
    allowedDomains: [],
    ...more
  }) as never

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true })(
  "AI agent tools",
  (it) => {
    it.effect("are created, read, listed by name, changed and deleted; each kind is checked as it is written", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const path = { slug: agent.slug }
        const create = (body: unknown) => client.aiAgentTools.create({ path, payload: full(body), ...noHeaders })
        const http = yield* create({ ...rawHttpTool("https://api.example.com/o/{{input.orderId}}"), name: "b_http" })
        expect(http).toMatchObject({ name: "b_http", enabled: true, config: { kind: "http", timeoutSeconds: 10 } })
        const memo = yield* create({ name: "a_memo", config: { kind: "builtin", builtin: "remember" } })
        expect(memo.config).toMatchObject({ kind: "builtin", builtin: "remember", settings: { scope: "end-user" } })
        expect(memo.description).toBeNull()
        const page = yield* client.aiAgentTools.list({ path, urlParams: {} })
        expect(page.items.map((item) => item.name)).toEqual(["a_memo", "b_http"])
        const builtins = yield* client.aiAgentTools.list({ path, urlParams: { kind: "builtin" } })
        expect(builtins.items.map((item) => item.id)).toEqual([memo.id])
        expect(yield* client.aiAgentTools.get({ path: { ...path, tid: http.id } })).toEqual(http)
        const taken = yield* create({ name: "a_memo", config: { kind: "builtin", builtin: "handoff" } }).pipe(
          Effect.flip
        )
        expect(taken._tag).toBe("AiAgentToolNameTaken")
        const twice = yield* create({ name: "memo2", config: { kind: "builtin", builtin: "remember" } }).pipe(
          Effect.flip
        )
        expect(twice).toMatchObject({ _tag: "AiAgentToolInvalid", problems: [{ field: "config.builtin" }] })
        const noDescription = yield* create(rawHttpTool("https://x.example/", { description: null })).pipe(Effect.flip)
        expect(noDescription).toMatchObject({ _tag: "AiAgentToolInvalid", problems: [{ field: "description" }] })
        const badPlaceholder = yield* create(rawHttpTool("https://x.example/{{input.missing}}")).pipe(Effect.flip)
        expect(badPlaceholder).toMatchObject({ _tag: "AiAgentToolInvalid", problems: [{ field: "config.url" }] })
        const getWithBody = yield* create(
          rawHttpTool("https://x.example/", {}, { body: { kind: "text", contentType: "text/plain", template: "x" } })
        ).pipe(Effect.flip)
        expect(getWithBody._tag).toBe("AiAgentToolInvalid")
        const missingSecret = yield* create(
          rawHttpTool("https://x.example/", {}, { headers: { authorization: { secret: "NO_SUCH_SECRET_Y" } } })
        ).pipe(Effect.flip)
        expect(missingSecret).toMatchObject({ _tag: "SecretReferenceMissing", names: ["NO_SUCH_SECRET_Y"] })
        const noWorkspaceTool = yield* create({
          name: "ghost",
          config: { kind: "workspace", workspaceToolId: "0190c7a0-0000-7000-8000-00000000beef" }
        }).pipe(Effect.flip)
        expect(noWorkspaceTool).toMatchObject({
          _tag: "AiAgentToolInvalid",
          problems: [{ field: "config.workspaceToolId" }]
        })
        const knowledge = yield* create({
          name: "search",
          config: {
            kind: "builtin",
            builtin: "knowledge_search",
            settings: { knowledgeIds: ["0190c7a0-0000-7000-8000-00000000feed"] }
          }
        }).pipe(Effect.flip)
        expect(knowledge._tag).toBe("AiAgentToolInvalid")
        // A change: a new config replaces the old whole; the kind may change.
        const changed = yield* client.aiAgentTools.update({
          path: { ...path, tid: http.id },
          payload: patchOf({ enabled: false, config: { kind: "builtin", builtin: "handoff" } }),
          ...noHeaders
        })
        expect(changed).toMatchObject({ enabled: false, config: { kind: "builtin", builtin: "handoff" } })
        const disabled = yield* client.aiAgentTools.list({ path, urlParams: { enabled: false } })
        expect(disabled.items.map((item) => item.id)).toEqual([http.id])
        const renamed = yield* client.aiAgentTools.updateById({
          path,
          payload: { id: http.id, name: "c_handoff", description: "Hands over" },
          ...noHeaders
        })
        expect(renamed).toMatchObject({ name: "c_handoff", description: "Hands over" })
        // Writes bumped the revision once each (the refused ones not at all).
        expect(yield* revisionOf(agent.id)).toBe(5)
        const stale = yield* client.aiAgentTools.delete({
          path: { ...path, tid: memo.id },
          headers: { "if-match": 4 as never }
        }).pipe(Effect.flip)
        expect(stale).toMatchObject({ _tag: "RevisionConflict", actual: 5 })
        yield* client.aiAgentTools.delete({ path: { ...path, tid: memo.id }, headers: { "if-match": 5 as never } })
        yield* client.aiAgentTools.deleteById({ path, urlParams: { id: http.id }, ...noHeaders })
        expect((yield* client.aiAgentTools.list({ path, urlParams: {} })).total).toBe(0)
        const gone = yield* client.aiAgentTools.get({ path: { ...path, tid: memo.id } }).pipe(Effect.flip)
        expect(gone._tag).toBe("AiAgentToolNotFound")
      }))

    it.effect("secret references are recorded for the agent tool: the secret's delete is refused naming it", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const secret = fresh("AGENT_KEY").toUpperCase()
        const stored = yield* client.secrets.create({ payload: secretCreate(secret, freshValue("agent")) })
        const tool = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: httpTool("https://api.example.com/", {}, { headers: { authorization: { secret } } }),
          ...noHeaders
        })
        const refused = yield* client.secrets.delete({ path: { secret_id: stored.id }, urlParams: { force: false } })
          .pipe(Effect.flip)
        expect(refused).toMatchObject({
          _tag: "SecretInUse",
          usedBy: [{ kind: "ai-agent-tool", id: tool.id, name: `${agent.slug}/${tool.name}` }]
        })
        // Once the tool stops naming it, the secret may go.
        yield* client.aiAgentTools.update({
          path: { slug: agent.slug, tid: tool.id },
          payload: patchOf({ config: { kind: "http", inputSchema, method: "GET", url: "https://api.example.com/" } }),
          ...noHeaders
        })
        yield* client.secrets.delete({ path: { secret_id: stored.id }, urlParams: { force: false } })
      }))

    it.scoped("an http tool's test: the secret reaches the server and is masked in the answer", () =>
      Effect.gen(function*() {
        const server = yield* echoServer
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const secret = fresh("CRM_KEY").toUpperCase()
        const value = freshValue("crm")
        yield* client.secrets.create({ payload: secretCreate(secret, value) })
        const tool = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: httpTool(server.url("/echo?order={{input.orderId}}"), {}, {
            headers: { authorization: { secret, prefix: "Bearer " } }
          }),
          ...noHeaders
        })
        const result = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: tool.id },
          payload: { input: { orderId: "A-1" } }
        })
        expect(result).toMatchObject({
          ok: true,
          kind: "http",
          toolId: tool.id,
          response: { status: 200 },
          request: { secretsUsed: [secret] },
          error: null
        })
        expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${value}`)
        expect(JSON.stringify(result)).not.toContain(value)
        expect(result.request?.headers["authorization"]).toBe("Bearer ••••")
        expect(result.output).toMatchObject({ url: "/echo?order=A-1" })
        const badInput = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: tool.id },
          payload: { input: { orderId: 5 } as never }
        }).pipe(Effect.flip)
        expect(badInput).toMatchObject({ _tag: "AiAgentToolInputInvalid", problems: [{ pointer: "/orderId" }] })
        const missing = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: tool.id },
          payload: { input: {} }
        }).pipe(Effect.flip)
        expect(missing._tag).toBe("AiAgentToolInputInvalid")
        const slow = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: httpTool(server.url("/slow?ms=3000"), {}, { timeoutSeconds: 1 }),
          ...noHeaders
        })
        const timedOut = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: slow.id },
          payload: { input: { orderId: "A" } }
        }).pipe(Effect.flip)
        expect(timedOut._tag).toBe("Timeout")
        const failing = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: httpTool(server.url("/status?code=503")),
          ...noHeaders
        })
        const answered = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: failing.id },
          payload: { input: { orderId: "A" } }
        })
        expect(answered).toMatchObject({ ok: false, output: null, error: { kind: "http-status" } })
      }))

    it.scoped("a workspace tool runs with the agent's overrides; its delete is refused naming the agent", () =>
      Effect.gen(function*() {
        const server = yield* echoServer
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId, "Order agent")
        const secret = fresh("TEAM_KEY").toUpperCase()
        const value = freshValue("team")
        yield* client.secrets.create({ payload: secretCreate(secret, value) })
        const shared = yield* client.workspaceTools.create({
          payload: sharedTool(server.url("/echo?order={{input.orderId}}"), {
            headers: { "X-Team": { value: "shared" } },
            query: { tenant: { value: "{{input.tenant}}" } }
          })
        })
        const undeclared = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: full({
            name: "orders",
            config: { kind: "workspace", workspaceToolId: shared.id, overrides: { fixedInput: { nope: 1 } } }
          }),
          ...noHeaders
        }).pipe(Effect.flip)
        expect(undeclared).toMatchObject({
          _tag: "AiAgentToolInvalid",
          problems: [{ field: "config.overrides.fixedInput.nope" }]
        })
        const missingSecret = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: full({
            name: "orders",
            config: {
              kind: "workspace",
              workspaceToolId: shared.id,
              overrides: { headers: { authorization: { secret: "NO_SUCH_SECRET_Z" } } }
            }
          }),
          ...noHeaders
        }).pipe(Effect.flip)
        expect(missingSecret._tag).toBe("SecretReferenceMissing")
        const tool = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: full({
            name: "orders",
            config: {
              kind: "workspace",
              workspaceToolId: shared.id,
              overrides: {
                fixedInput: { tenant: "acme" },
                headers: { "x-team": { value: "agent" }, authorization: { secret, prefix: "Bearer " } },
                timeoutSeconds: 5
              }
            }
          }),
          ...noHeaders
        })
        expect(tool.description).toBeNull()
        const result = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: tool.id },
          payload: { input: { orderId: "B-2", tenant: "not-this-one" } }
        })
        expect(result).toMatchObject({ ok: true, kind: "workspace" })
        const sent = server.requests.at(-1)!
        expect(sent.url).toContain("order=B-2")
        expect(sent.url).toContain("tenant=acme")
        expect(sent.headers["x-team"]).toBe("agent")
        expect(sent.headers.authorization).toBe(`Bearer ${value}`)
        expect(JSON.stringify(result)).not.toContain(value)
        const refused = yield* client.workspaceTools.delete({
          path: { tool_id: shared.id },
          urlParams: { force: false }
        })
          .pipe(Effect.flip)
        expect(refused).toMatchObject({
          _tag: "WorkspaceToolInUse",
          usedBy: [{ kind: "ai-agent", id: agent.slug, name: "Order agent" }]
        })
        // Forced, the agent's tool is left pointing at nothing: its test says so.
        yield* client.workspaceTools.delete({ path: { tool_id: shared.id }, urlParams: { force: true } })
        const orphan = yield* client.aiAgentTools.test({
          path: { slug: agent.slug, tid: tool.id },
          payload: { input: { orderId: "B-2" } }
        }).pipe(Effect.flip)
        expect(orphan._tag).toBe("AiAgentToolInvalid")
      }))

    it.effect("built-ins run dry: nothing is remembered, nothing handed off; knowledge with no document finds none", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const path = { slug: agent.slug }
        const make = (name: string, config: unknown) =>
          client.aiAgentTools.create({ path, payload: full({ name, config }), ...noHeaders })
        const remember = yield* make("remember", { kind: "builtin", builtin: "remember", settings: { scope: "agent" } })
        const handoff = yield* make("handoff", { kind: "builtin", builtin: "handoff", settings: { queue: "billing" } })
        const search = yield* make("search", { kind: "builtin", builtin: "knowledge_search" })
        const test = (tid: AiAgentToolId, input: Record<string, unknown>) =>
          client.aiAgentTools.test({ path: { ...path, tid }, payload: { input: input as never } })
        const remembered = yield* test(remember.id, { content: "Prefers tea", key: "drink" })
        expect(remembered).toMatchObject({
          ok: true,
          kind: "builtin",
          request: null,
          response: null,
          output: { dryRun: true, wouldRemember: { scope: "agent", key: "drink", content: "Prefers tea" } }
        })
        const memory = yield* client.aiAgentMemory.list({ path, urlParams: {} }).pipe(Effect.either)
        if (memory._tag === "Right") expect(memory.right.total).toBe(0)
        const handed = yield* test(handoff.id, { reason: "angry" })
        expect(handed.output).toMatchObject({ dryRun: true, wouldHandOff: { reason: "angry", queue: "billing" } })
        const found = yield* test(search.id, { query: "refunds" })
        expect(found.output).toEqual({ query: "refunds", limit: 5, results: [] })
        const bad = yield* test(remember.id, { key: "drink" }).pipe(Effect.flip)
        expect(bad._tag).toBe("AiAgentToolInputInvalid")
        expect(yield* revisionOf(agent.id)).toBe(4)
      }))

    it.effect("hostile input: NUL, lone surrogates, deep nesting in inputSchema and in test input; nothing stored", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const send = (url: string, body: string) =>
          exchange(as(
            HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(body, "application/json")),
            { token: owner.token, address: owner.address }
          ))
        const tools = `/v1/ai-agents/${agent.slug}/tools`
        const valid = JSON.parse(JSON.stringify(httpTool("https://api.example.com/"))) as {
          config: { inputSchema: Record<string, unknown> }
        }
        expect((yield* send(tools, JSON.stringify({ ...valid, description: "nul\u0000" }))).status).toBe(400)
        expect((yield* send(tools, JSON.stringify(valid).replace("Looks", "\\ud800Looks"))).status).toBe(400)
        const deepSchema = { ...valid, config: { ...valid.config, inputSchema: { type: "object", properties: {} } } }
        const nested = JSON.stringify(deepSchema).replace(
          `"properties":{}`,
          `"properties":{"a":${"{\"items\":".repeat(4000)}{}${"}".repeat(4000)}}`
        )
        expect((yield* send(tools, nested)).status).toBe(400)
        const schemaNest = (depth: number): unknown =>
          depth === 0 ? { type: "string" } : { type: "object", properties: { x: schemaNest(depth - 1) } }
        const tooDeepSchema = yield* send(
          tools,
          JSON.stringify({ ...valid, name: "deep", config: { ...valid.config, inputSchema: schemaNest(60) } })
        )
        expect(tooDeepSchema.status).toBe(400)
        expect((yield* client.aiAgentTools.list({ path: { slug: agent.slug }, urlParams: {} })).total).toBe(0)
        const tool = yield* client.aiAgentTools.create({
          path: { slug: agent.slug },
          payload: httpTool("https://api.example.com/"),
          ...noHeaders
        })
        const test = `${tools}/${tool.id}/test`
        expect((yield* send(test, `{"input":{"orderId":"a\\u0000"}}`)).status).toBe(400)
        expect((yield* send(test, `{"input":{"orderId":"a\\udc00"}}`)).status).toBe(400)
        const deepInput = yield* send(test, `{"input":{"orderId":"a","x":${"[".repeat(5000)}${"]".repeat(5000)}}}`)
        expect(deepInput.status).toBe(400)
        expect(yield* revisionOf(agent.id)).toBe(2)
      }))

    it.effect("roles: tool.write writes (an editor may not); another workspace sees no agent and no tool", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const agent = yield* agentRow(owner.workspaceId)
        const path = { slug: agent.slug }
        const tool = yield* (yield* clientOf(owner)).aiAgentTools.create({
          path,
          payload: httpTool("https://api.example.com/"),
          ...noHeaders
        })
        const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
        expect((yield* editor.aiAgentTools.list({ path, urlParams: {} })).total).toBe(1)
        const refused = yield* editor.aiAgentTools.create({
          path,
          payload: httpTool("https://x.example/"),
          ...noHeaders
        })
          .pipe(Effect.flip)
        expect(refused).toMatchObject({ _tag: "Forbidden", capability: "tool.write" })
        const refusedTest = yield* editor.aiAgentTools.test({ path: { ...path, tid: tool.id }, payload: { input: {} } })
          .pipe(Effect.flip)
        expect(refusedTest).toMatchObject({ _tag: "Forbidden", capability: "tool.write" })
        const developer = yield* clientOf(yield* join(owner, "developer"), owner.workspaceId)
        yield* developer.aiAgentTools.update({
          path: { ...path, tid: tool.id },
          payload: { enabled: false },
          ...noHeaders
        })
        const stranger = yield* signUp()
        const theirs = yield* clientOf(stranger)
        const theirAgent = yield* agentRow(stranger.workspaceId)
        expect((yield* theirs.aiAgentTools.get({ path: { ...path, tid: tool.id } }).pipe(Effect.flip))._tag)
          .toBe("AiAgentNotFound")
        const crossed = yield* theirs.aiAgentTools.get({ path: { slug: theirAgent.slug, tid: tool.id } })
          .pipe(Effect.flip)
        expect(crossed._tag).toBe("AiAgentToolNotFound")
        const crossedTest = yield* theirs.aiAgentTools.test({
          path: { slug: theirAgent.slug, tid: tool.id },
          payload: { input: {} }
        }).pipe(Effect.flip)
        expect(crossedTest._tag).toBe("AiAgentToolNotFound")
        const crossedDelete = yield* theirs.aiAgentTools.deleteById({
          path: { slug: theirAgent.slug },
          urlParams: { id: tool.id },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(crossedDelete._tag).toBe("AiAgentToolNotFound")
        // Their workspace tool cannot be referenced from our agent.
        const theirShared = yield* theirs.workspaceTools.create({ payload: sharedTool("https://api.example.com/") })
        const borrowed = yield* (yield* clientOf(owner)).aiAgentTools.create({
          path,
          payload: full({ name: "borrowed", config: { kind: "workspace", workspaceToolId: theirShared.id } }),
          ...noHeaders
        }).pipe(Effect.flip)
        expect(borrowed._tag).toBe("AiAgentToolInvalid")
      }))
  }
)

layer(testServer(), { excludeTestServices: true })("AI agent tools without the allow-list", (it) => {
  it.scoped("a tool test to a loopback address is refused before any connection is made", () =>
    Effect.gen(function*() {
      const server = yield* echoServer
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const tool = yield* client.aiAgentTools.create({
        path: { slug: agent.slug },
        payload: httpTool(server.url("/echo")),
        ...noHeaders
      })
      const refused = yield* client.aiAgentTools.test({
        path: { slug: agent.slug, tid: tool.id },
        payload: { input: { orderId: "A" } }
      }).pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "UpstreamFailed" })
      expect(server.connections()).toBe(0)
    }))
})
