/**
 * The workspace's LLM settings over HTTP against the real database, through
 * the typed client: defaults, changes field by field, the rules across fields
 * (400 naming each), unknown fields, vault names that do not exist, roles,
 * the LLM in force from each source, and the connection test's round trip to
 * a fake OpenAI-compatible server on loopback (ok, a refused key, an unknown
 * model, a time-out, TLS, an unresolvable host, the SSRF rule) with the key from
 * the vault, which never shows in an answer or a log line.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule, Schema } from "effect"
import { AgentLlmSettingsPatch } from "../../../src/domain/settings/AgentLlmSettings.js"
import { LlmConnectionTestRequest } from "../../../src/domain/settings/LlmConnectionTest.js"
import { SecretCreate, SecretListParams } from "../../../src/domain/workspace/Secret.js"
import { UsageParams } from "../../../src/domain/workspace/Usage.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { answer, type FakeLlmServer, hang, status } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi, modelNotFound } from "../../support/FakeOpenAi.js"
import { exchange } from "../../support/Http.js"
import { auditQuery } from "../../support/IdentityCalls.js"
import { clientOf, join } from "../../support/Members.js"
import { capturingLogger, type LogEntry, testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const patchOf = (patch: unknown) => Schema.decodeUnknownSync(AgentLlmSettingsPatch)(patch)
const testOf = (request: unknown) => Schema.decodeUnknownSync(LlmConnectionTestRequest)(request)

let counter = 0
/** A key as a provider would issue it, different for every test. */
const freshKey = () => `sk-test-${process.pid}-${++counter}-${Math.random().toString(36).slice(2)}abcdef`

/** Store a secret in the account's vault. */
const storeSecret = (account: TestAccount, name: string, value: string) =>
  Effect.flatMap(
    clientOf(account),
    (client) => client.secrets.create({ payload: Schema.decodeUnknownSync(SecretCreate)({ name, value }) })
  )

/** A raw PATCH of the settings, for bodies the typed client will not send. */
const patchRaw = (account: TestAccount, body: string) =>
  exchange(
    as(
      HttpClientRequest.patch("/v1/workspaces/agent-llm").pipe(HttpClientRequest.bodyText(body, "application/json")),
      account
    )
  )

/** The fake OpenAI server as these tests drive it: keys it accepts, and what it got. */
interface Provider {
  /** `<origin>/v1`. */
  readonly baseUrl: string
  readonly server: FakeLlmServer
  /** Accept this bearer key from now on. */
  readonly acceptKey: (key: string) => void
}

class FakeOpenAi extends Context.Tag("test/FakeOpenAi")<FakeOpenAi, Provider>() {}

/**
 * The fake answers a key it accepts with "ready, you said: <prompt>" (11 tokens
 * in, 3 out); any other key with a 401 that echoes it, as some servers do; the
 * model `no-such-model` with a 404 and the model `hang` not at all.
 */
const fakeOpenAi = Effect.map(makeFakeOpenAi, (server): Provider => {
  const keys = new Set<string>()
  server.respond((request) => {
    const key = String(request.headers.authorization ?? "").replace(/^Bearer /, "")
    if (!keys.has(key)) {
      return status(401, { error: { message: `Incorrect API key provided: ${key}.`, code: "invalid_api_key" } })
    }
    const model = String(request.body?.model)
    if (model === "no-such-model") return modelNotFound(model)
    if (model === "hang") return hang
    const prompt = request.body?.messages?.findLast((m: { role: string }) => m.role === "user")?.content
    const text = typeof prompt === "string"
      ? prompt
      : (prompt ?? []).map((part: { text?: string }) => part.text ?? "").join("")
    return answer({ text: `ready, you said: ${text}`, usage: { input: 11, output: 3 } })
  })
  return { baseUrl: `${server.origin}/v1`, server, acceptKey: (key) => keys.add(key) }
})

/** The server's captured log, for the scan that no key reached it. */
class Logs extends Context.Tag("test/Logs")<Logs, Array<LogEntry>>() {}

const logs: Array<LogEntry> = []

/** A node whose outbound rule opens 127.0.0.1 (the fake) and nothing else of loopback. */
const Server = Layer.unwrapScoped(
  Effect.map(fakeOpenAi, (fake) =>
    Layer.mergeAll(
      testServer(
        { PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32", PARLEY_USAGE_FLUSH_INTERVAL: "200 millis" },
        capturingLogger(logs)
      ),
      Layer.succeed(FakeOpenAi, fake),
      Layer.succeed(Logs, logs)
    ))
)

layer(Server, { excludeTestServices: true, timeout: 60_000 })("agent LLM settings", (it) => {
  it.effect("a new workspace has no connection of its own; the offline default is in force", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const settings = yield* client.agentSettings.getAgentLlm()
      expect(settings).toMatchObject({ workspaceId: owner.workspaceId, primary: null, fallback: null, updatedBy: null })
      const info = yield* client.agentSettings.agentLlmInfo()
      expect(info).toEqual({
        provider: "offline",
        model: "parley-offline",
        baseUrl: null,
        source: "default",
        keyConfigured: false,
        fallback: null
      })
      expect(yield* client.agentSettings.llmConfig()).toEqual(info)
    }))

  it.effect("a change replaces the connections given, keeps the others, applies defaults and is audited", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      yield* storeSecret(owner, "OPENAI_KEY", freshKey())
      const saved = yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({ primary: { provider: "openai", model: "gpt-4.1-mini", apiKeySecret: "OPENAI_KEY" } })
      })
      expect(saved.primary).toEqual({
        provider: "openai",
        baseUrl: null,
        model: "gpt-4.1-mini",
        apiKeySecret: "OPENAI_KEY",
        temperature: 0.3,
        maxOutputTokens: 1024,
        requestTimeoutSeconds: 60
      })
      expect(saved.updatedBy).toEqual({ kind: "user", userId: owner.userId })
      // Each field of a connection, then the fallback alone: the primary stays.
      const tuned = yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({
          primary: {
            provider: "openai",
            model: "gpt-4.1",
            baseUrl: "https://proxy.example.com/v1",
            apiKeySecret: "OPENAI_KEY",
            temperature: 1.5,
            maxOutputTokens: 200_000,
            requestTimeoutSeconds: 300
          }
        })
      })
      expect(tuned.primary).toMatchObject({
        model: "gpt-4.1",
        baseUrl: "https://proxy.example.com/v1",
        temperature: 1.5
      })
      const withFallback = yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({ fallback: { provider: "offline", model: "parley-offline" } })
      })
      expect(withFallback.primary).toEqual(tuned.primary)
      expect(withFallback.fallback).toMatchObject({ provider: "offline", model: "parley-offline" })
      expect(yield* client.agentSettings.getAgentLlm()).toEqual(withFallback)
      const info = yield* client.agentSettings.agentLlmInfo()
      expect(info).toMatchObject({ provider: "openai", model: "gpt-4.1", source: "workspace", keyConfigured: true })
      expect(info.fallback).toMatchObject({ provider: "offline", source: "workspace", keyConfigured: false })
      // null clears a connection: the default is in force again.
      const cleared = yield* client.agentSettings.updateAgentLlm({ payload: patchOf({ primary: null }) })
      expect(cleared.primary).toBeNull()
      expect((yield* client.agentSettings.agentLlmInfo()).source).toBe("default")
      const audit = yield* client.audit.list({ urlParams: auditQuery({ action: "agent-llm-settings.updated" }) })
      expect(audit.items.length).toBe(4)
    }))

  it.effect("rules across fields are a 400 naming each field at fault", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const refused = (patch: unknown) =>
        failureOf(client.agentSettings.updateAgentLlm({ payload: patchOf(patch) })).pipe(
          Effect.map((error) => ({
            tag: error._tag,
            fields: "problems" in error
              ? error.problems.map((p) => p.field)
              : []
          }))
        )
      expect(yield* refused({ primary: { provider: "openai-compatible", model: "llama3" } })).toEqual({
        tag: "SettingsInvalid",
        fields: ["primary.baseUrl"]
      })
      expect(yield* refused({ primary: { provider: "anthropic", model: "claude-sonnet-4-5" } })).toEqual({
        tag: "SettingsInvalid",
        fields: ["primary.apiKeySecret"]
      })
      expect(
        yield* refused({
          fallback: { provider: "offline", model: "x", baseUrl: "https://a.example.com", apiKeySecret: "K" }
        })
      ).toEqual({ tag: "SettingsInvalid", fields: ["fallback.baseUrl", "fallback.apiKeySecret"] })
      expect(
        yield* refused({
          primary: { provider: "openai-compatible", model: "m", baseUrl: "https://a.example.com/v1?x=1" }
        })
      ).toEqual({ tag: "SettingsInvalid", fields: ["primary.baseUrl"] })
      expect(yield* refused({ primary: { provider: "google", model: "gemini-2.5-flash", apiKeySecret: "K" } })).toEqual(
        {
          tag: "SettingsInvalid",
          fields: ["primary.provider"]
        }
      )
      const same = { provider: "openai-compatible", model: "m", baseUrl: "https://a.example.com/v1" }
      expect(yield* refused({ primary: same, fallback: { ...same, temperature: 1 } })).toEqual({
        tag: "SettingsInvalid",
        fields: ["fallback"]
      })
      // Nothing was stored by the refusals.
      expect(yield* client.agentSettings.getAgentLlm()).toMatchObject({
        primary: null,
        fallback: null,
        updatedBy: null
      })
    }))

  it.effect("a vault name that does not exist is SecretReferenceMissing, naming it", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const error = yield* failureOf(client.agentSettings.updateAgentLlm({
        payload: patchOf({
          primary: { provider: "openai", model: "gpt-4.1-mini", apiKeySecret: "NOT_IN_VAULT" },
          fallback: { provider: "anthropic", model: "claude-sonnet-4-5", apiKeySecret: "NOT_EITHER" }
        })
      }))
      expect(error._tag).toBe("SecretReferenceMissing")
      expect([...(error as unknown as { names: Array<string> }).names].sort()).toEqual(["NOT_EITHER", "NOT_IN_VAULT"])
      // Another workspace's secret of that name does not count.
      const other = yield* signUp()
      yield* storeSecret(other, "THEIRS", freshKey())
      const theirs = yield* failureOf(client.agentSettings.updateAgentLlm({
        payload: patchOf({ primary: { provider: "openai", model: "gpt-4.1-mini", apiKeySecret: "THEIRS" } })
      }))
      expect(theirs._tag).toBe("SecretReferenceMissing")
    }))

  it.effect("bodies the schema refuses are 400s, never 500s, and change nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const bodies = [
        `{"primary":null,"extra":1}`,
        `{"primary":{"provider":"offline","model":"m","surprise":true}}`,
        `{"primary":{"provider":"cohere","model":"m"}}`,
        `{"primary":{"provider":"offline","model":"m\\u0000x"}}`,
        `{"primary":{"provider":"offline","model":"\\ud800"}}`,
        `{"primary":{"provider":"offline","model":"${"m".repeat(201)}"}}`,
        `{"primary":{"provider":"offline","model":"m","temperature":"hot"}}`,
        `{"primary":{"provider":"offline","model":"m","temperature":2.5}}`,
        `{"primary":{"provider":"offline","model":"m","maxOutputTokens":1.5}}`,
        `{"primary":{"provider":"openai-compatible","model":"m","baseUrl":"ftp://x.example.com"}}`,
        `{"primary":{"provider":"openai-compatible","model":"m","baseUrl":"https://user:pw@x.example.com"}}`,
        `{"primary":{"provider":"openai","model":"m","apiKeySecret":"lower_case"}}`,
        `{"primary":{"provider":"offline","model":"m","requestTimeoutSeconds":0}}`,
        `[]`,
        `{"primary":`
      ]
      for (const body of bodies) {
        const answer = yield* patchRaw(owner, body)
        expect(answer.status, body).toBe(400)
      }
      const client = yield* clientOf(owner)
      expect(yield* client.agentSettings.getAgentLlm()).toMatchObject({ primary: null, fallback: null })
    }))

  it.effect("concurrent changes of the two connections both hold, the first ones and later ones", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const connection = (model: string) => ({
        provider: "openai-compatible",
        model,
        baseUrl: "https://x.example.com/v1"
      })
      // The first round creates the row; the later ones change a stored row, where only its lock keeps both.
      for (let round = 0; round < 8; round++) {
        yield* Effect.all([
          client.agentSettings.updateAgentLlm({ payload: patchOf({ primary: connection(`a${round}`) }) }),
          client.agentSettings.updateAgentLlm({ payload: patchOf({ fallback: connection(`b${round}`) }) })
        ], { concurrency: 2 })
        const settings = yield* client.agentSettings.getAgentLlm()
        expect([settings.primary?.model, settings.fallback?.model]).toEqual([`a${round}`, `b${round}`])
      }
    }))

  it.effect("viewers read; admins change and test; developers (and the roles below) do not", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      const developer = yield* clientOf(yield* join(owner, "developer"), owner.workspaceId)
      const admin = yield* clientOf(yield* join(owner, "admin"), owner.workspaceId)
      expect((yield* viewer.agentSettings.getAgentLlm()).primary).toBeNull()
      expect((yield* viewer.agentSettings.agentLlmInfo()).source).toBe("default")
      const patch = patchOf({ primary: { provider: "offline", model: "parley-offline" } })
      expect((yield* failureOf(viewer.agentSettings.updateAgentLlm({ payload: patch })))._tag).toBe("Forbidden")
      expect((yield* failureOf(developer.agentSettings.updateAgentLlm({ payload: patch })))._tag).toBe("Forbidden")
      expect((yield* failureOf(developer.agentSettings.testAgentLlm({ payload: testOf({}) })))._tag).toBe("Forbidden")
      expect((yield* admin.agentSettings.updateAgentLlm({ payload: patch })).primary?.provider).toBe("offline")
      expect((yield* admin.agentSettings.testAgentLlm({ payload: testOf({}) })).ok).toBe(true)
    }))

  it.effect("the offline default answers a test without a network", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const result = yield* client.agentSettings.testAgentLlm({ payload: testOf({}) })
      expect(result).toMatchObject({
        ok: true,
        source: "default",
        provider: "offline",
        model: "parley-offline",
        error: null
      })
      expect(result.reply?.length).toBeGreaterThan(0)
      const noFallback = yield* failureOf(
        client.agentSettings.testAgentLlm({ payload: testOf({ target: "fallback" }) })
      )
      expect(noFallback._tag).toBe("SettingsInvalid")
      yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({ fallback: { provider: "offline", model: "backup" } })
      })
      const fallback = yield* client.agentSettings.testAgentLlm({ payload: testOf({ target: "fallback" }) })
      expect(fallback).toMatchObject({ ok: true, source: "workspace", model: "backup" })
    }))

  it.effect("a round trip to an OpenAI-compatible server with the vault's key: latency, model, usage, reply", () =>
    Effect.gen(function*() {
      const fake = yield* FakeOpenAi
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const key = freshKey()
      fake.acceptKey(key)
      yield* storeSecret(owner, "LOCAL_LLM", key)
      yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({
          primary: {
            provider: "openai-compatible",
            model: "fake-small",
            baseUrl: fake.baseUrl,
            apiKeySecret: "LOCAL_LLM"
          }
        })
      })
      const before = fake.server.requests.length
      const result = yield* client.agentSettings.testAgentLlm({ payload: testOf({ prompt: "Say hi" }) })
      expect(result).toMatchObject({
        ok: true,
        source: "workspace",
        provider: "openai-compatible",
        model: "fake-small",
        reportedModel: "fake-small-2026-01-01",
        usage: { inputTokens: 11, outputTokens: 3 },
        error: null
      })
      expect(result.reply).toBe("ready, you said: Say hi")
      expect(result.latencyMs).toBeGreaterThanOrEqual(0)
      // The key reached the server, from the vault.
      expect(fake.server.requests.slice(before).map((r) => r.headers.authorization)).toEqual([`Bearer ${key}`])
      // The use was counted on the secret.
      const secrets = yield* client.secrets.list({
        urlParams: Schema.decodeUnknownSync(SecretListParams)({ q: "LOCAL_LLM" })
      })
      expect(secrets.items[0]?.lastUsedBy).toMatchObject({ kind: "agent-llm-settings", id: owner.workspaceId })
      // The tokens it spent are the workspace's usage (once the node's meter has flushed).
      const byModel = yield* client.usage.usage({ urlParams: Schema.decodeUnknownSync(UsageParams)({}) }).pipe(
        Effect.map((usage) => usage.aiByModel),
        Effect.filterOrFail((models) => models.length > 0),
        Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("10 seconds")))
      )
      expect(byModel).toMatchObject([{
        provider: "openai-compatible",
        model: "fake-small",
        tokensIn: 11,
        tokensOut: 3
      }])
      yield* expectNoKey(key, JSON.stringify(result))
    }))

  it.effect("a proposed connection is tried, not saved; failures are answers naming their cause", () =>
    Effect.gen(function*() {
      const fake = yield* FakeOpenAi
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const key = freshKey()
      fake.acceptKey(key)
      yield* storeSecret(owner, "GOOD_KEY", key)
      const wrong = freshKey()
      yield* storeSecret(owner, "WRONG_KEY", wrong)
      const proposed = (connection: Record<string, unknown>) =>
        client.agentSettings.testAgentLlm({
          payload: testOf({
            connection: {
              provider: "openai-compatible",
              baseUrl: fake.baseUrl,
              apiKeySecret: "GOOD_KEY",
              ...connection
            }
          })
        })
      const ok = yield* proposed({ model: "fake-small" })
      expect(ok).toMatchObject({ ok: true, source: "proposed" })
      expect((yield* client.agentSettings.getAgentLlm()).primary).toBeNull()

      const refusedKey = yield* proposed({ model: "fake-small", apiKeySecret: "WRONG_KEY" })
      expect(refusedKey).toMatchObject({ ok: false, reply: null, usage: null })
      expect(refusedKey.error).toMatchObject({ kind: "authentication", httpStatus: 401 })

      const unknownModel = yield* proposed({ model: "no-such-model" })
      expect(unknownModel.error).toMatchObject({ kind: "model-not-found", httpStatus: 404 })

      const slow = yield* proposed({ model: "hang", requestTimeoutSeconds: 1 })
      expect(slow.error?.kind).toBe("timeout")
      expect(slow.latencyMs).toBeGreaterThanOrEqual(900)
      expect(slow.latencyMs).toBeLessThan(10_000)

      // TLS spoken to a plain-HTTP server: the handshake fails.
      const tls = yield* proposed({ model: "fake-small", baseUrl: fake.baseUrl.replace("http:", "https:") })
      expect(tls.error?.kind).toBe("tls")
      const nowhere = yield* proposed({ model: "fake-small", baseUrl: "http://no-such-host.invalid/v1" })
      expect(nowhere.error?.kind).toBe("host-not-found")

      // 127.0.0.2 is loopback too, and not in the allow-list: refused before any connection.
      const sent = fake.server.requests.length
      const loopback = yield* proposed({ model: "fake-small", baseUrl: fake.baseUrl.replace("127.0.0.1", "127.0.0.2") })
      expect(loopback.error?.kind).toBe("outbound-refused")
      const metadata = yield* proposed({ model: "fake-small", baseUrl: "http://169.254.169.254/v1" })
      expect(metadata.error?.kind).toBe("outbound-refused")
      expect(fake.server.requests.length).toBe(sent)

      // A proposed connection that breaks a rule, or names a missing secret, is a 400.
      const invalid = yield* failureOf(client.agentSettings.testAgentLlm({
        payload: testOf({ connection: { provider: "openai-compatible", model: "m" } })
      }))
      expect(invalid._tag).toBe("SettingsInvalid")
      const missing = yield* failureOf(proposed({ model: "fake-small", apiKeySecret: "NO_SUCH_KEY" }))
      expect(missing._tag).toBe("SecretReferenceMissing")

      yield* expectNoKey(key, JSON.stringify([ok, refusedKey, unknownModel, slow, tls, nowhere, loopback]))
      yield* expectNoKey(wrong, JSON.stringify(refusedKey))
    }))

  it.effect("the vault refuses to delete a secret the settings use; forced, the key is no longer configured", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const secret = yield* storeSecret(owner, "IN_USE", freshKey())
      yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({ primary: { provider: "anthropic", model: "claude-sonnet-4-5", apiKeySecret: "IN_USE" } })
      })
      const refused = yield* failureOf(
        client.secrets.delete({ path: { secret_id: secret.id }, urlParams: { force: false } })
      )
      expect(refused._tag).toBe("SecretInUse")
      yield* client.secrets.delete({ path: { secret_id: secret.id }, urlParams: { force: true } })
      expect((yield* client.agentSettings.agentLlmInfo()).keyConfigured).toBe(false)
      const test = yield* failureOf(client.agentSettings.testAgentLlm({ payload: testOf({}) }))
      expect(test._tag).toBe("SecretReferenceMissing")
    }))
})

/** The key is in no answer given and no line the server logged. */
const expectNoKey = (key: string, answers: string) =>
  Effect.map(Logs, (entries) => {
    expect(answers).not.toContain(key)
    expect(JSON.stringify(entries)).not.toContain(key)
  })

/** A node whose environment sets the LLM (the fake on loopback), with no allow-list. */
const EnvironmentServer = Layer.unwrapScoped(
  Effect.map(fakeOpenAi, (fake) =>
    Layer.merge(
      testServer({
        PARLEY_LLM_PROVIDER: "openai-compatible",
        PARLEY_LLM_MODEL: "env-model",
        PARLEY_LLM_BASE_URL: fake.baseUrl,
        PARLEY_LLM_API_KEY: "sk-environment-key-never-shown"
      }),
      Layer.succeed(FakeOpenAi, fake)
    ))
)

layer(EnvironmentServer, { excludeTestServices: true, timeout: 60_000 })("the server's environment LLM", (it) => {
  it.effect("is in force where the workspace sets none, with its key configured but never shown", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const fake = yield* FakeOpenAi
      const info = yield* client.agentSettings.agentLlmInfo()
      expect(info).toMatchObject({
        provider: "openai-compatible",
        model: "env-model",
        baseUrl: fake.baseUrl,
        source: "environment",
        keyConfigured: true,
        fallback: null
      })
      expect(JSON.stringify(info)).not.toContain("sk-environment")
      // Without the allow-list the loopback endpoint is refused before any connection.
      const result = yield* client.agentSettings.testAgentLlm({ payload: testOf({}) })
      expect(result).toMatchObject({ ok: false, source: "environment", model: "env-model" })
      expect(result.error?.kind).toBe("outbound-refused")
      expect(fake.server.requests).toEqual([])
      // The workspace's own setting wins.
      yield* client.agentSettings.updateAgentLlm({
        payload: patchOf({ primary: { provider: "offline", model: "own" } })
      })
      expect(yield* client.agentSettings.agentLlmInfo()).toMatchObject({ source: "workspace", model: "own" })
    }))
})
