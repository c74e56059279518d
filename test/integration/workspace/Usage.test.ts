/**
 * Usage and billing over HTTP against the real database: sessions and turns
 * from real runtime conversations, AI tokens from `UsageMeter`s (two on one
 * database add up; a killed node loses at most one flush interval; a stopped
 * one loses nothing), storage from the workspace's rows, the range rules, the
 * plan from configuration and the seats from members and invitations.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Context, DateTime, Effect, Layer, Schema } from "effect"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { SessionStart } from "../../../src/domain/runtime/SessionStart.js"
import { LlmConnectionTestRequest } from "../../../src/domain/settings/LlmConnectionTest.js"
import { UsageParams } from "../../../src/domain/workspace/Usage.js"
import { UsageMeter } from "../../../src/services/workspace/UsageMeter.js"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const params = (query: typeof UsageParams.Encoded = {}) => Schema.decodeUnknownSync(UsageParams)(query)

const usageOf = (account: TestAccount, query: typeof UsageParams.Encoded = {}) =>
  Effect.flatMap(clientOf(account), (client) => client.usage.usage({ urlParams: params(query) }))

/** A conversation with the echo Assistant: started, then `turns` messages answered. */
const converse = (owner: TestAccount, turns: number) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const created = yield* client.assistants.create({ payload: AssistantCreate.make({ name: "Usage" }) })
    yield* client.flows.replaceFlow({
      path: { agent_id: created.id },
      headers: {},
      payload: Schema.decodeUnknownSync(FlowReplace)(echoFlow)
    })
    const session = yield* client.runtime.startSession({
      payload: Schema.decodeUnknownSync(SessionStart)({ agentId: created.id })
    })
    for (let turn = 1; turn <= turns; turn++) {
      yield* client.runtime.sendTurn({ path: { id: session.sessionId }, headers: {}, payload: { text: `m${turn}` } })
    }
  })

/** A UsageMeter of its own on the test server's database, as another node would have. */
const anotherNode = Layer.build(UsageMeter.Default)

const today = () => new Date().toISOString().slice(0, 10)

/** Input tokens the database holds for a workspace. */
const storedTokensIn = (workspaceId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ amount: string | null }>`SELECT sum(amount)::text AS amount FROM usage_counters
      WHERE workspace_id = ${workspaceId} AND metric = 'ai.tokens.in'`
  ).pipe(
    Effect.map(([row]) => Number(row?.amount ?? 0)),
    Effect.orDie
  )

const childScript = fileURLToPath(new URL("../../support/UsageMeterChild.ts", import.meta.url))
const root = fileURLToPath(new URL("../../../", import.meta.url))

/**
 * Run the meter child for `workspaceId` until it counted `atLeast`, then end it
 * with `signal`; what it printed last.
 */
const countInChild = (databaseUrl: string, workspaceId: string, atLeast: number, signal: NodeJS.Signals) =>
  Effect.promise(() =>
    new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", childScript, workspaceId], {
        cwd: root,
        env: {
          PATH: process.env["PATH"] ?? "",
          HOME: process.env["HOME"] ?? "",
          DATABASE_URL: databaseUrl,
          PARLEY_USAGE_FLUSH_INTERVAL: "300 millis",
          PARLEY_LOG_LEVEL: "Error"
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let last = 0
      let errors = ""
      let buffered = ""
      child.stderr.on("data", (chunk) => (errors += chunk))
      child.stdout.on("data", (chunk: Buffer) => {
        buffered += chunk.toString()
        const lines = buffered.split("\n")
        buffered = lines.pop()!
        for (const line of lines) {
          if (line.startsWith("recorded ")) last = Number(line.slice(9))
        }
        if (last >= atLeast && child.signalCode === null && !child.killed) child.kill(signal)
      })
      child.on("exit", () => (last > 0 ? resolve(last) : reject(new Error(`the child counted nothing: ${errors}`))))
    })
  )

layer(testServer({ PARLEY_USAGE_FLUSH_INTERVAL: "1 second" }), { excludeTestServices: true, timeout: 120_000 })(
  "usage",
  (it) => {
    it.effect("a new workspace reads 30 empty days on the community plan", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const usage = yield* usageOf(owner)
        expect(usage.plan).toEqual({ key: "community", name: "Community" })
        expect(usage.period).toBe("day")
        expect(usage.buckets).toHaveLength(30)
        expect(DateTime.formatIso(usage.buckets.at(-1)!.start).slice(0, 10)).toBe(today())
        expect(usage.totals).toEqual({
          sessions: 0,
          turns: 0,
          aiTokensIn: 0,
          aiTokensOut: 0,
          aiCostUsd: 0,
          voiceMinutes: 0,
          workflowRuns: 0,
          storageBytes: 0
        })
        expect(usage.aiByModel).toEqual([])
        expect(DateTime.toEpochMillis(usage.asOf)).toBeLessThanOrEqual(Date.now())
      }))

    it.effect("counts sessions and turns of real conversations, and the storage they take", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const other = yield* signUp()
        yield* converse(owner, 3)
        yield* converse(owner, 2)
        yield* converse(other, 1)
        const usage = yield* usageOf(owner)
        expect(usage.totals).toMatchObject({ sessions: 2, turns: 5, voiceMinutes: 0, workflowRuns: 0 })
        const last = usage.buckets.at(-1)!
        expect(last).toMatchObject({ sessions: 2, turns: 5 })
        expect(last.storageBytes).toBeGreaterThan(1000)
        expect(usage.totals.storageBytes).toBe(last.storageBytes)
        // Storage is a level: nothing was stored before today.
        expect(usage.buckets[0]!.storageBytes).toBe(0)
        // One more turn shows at once (derived from the runtime's rows, not flushed).
        yield* converse(owner, 1)
        const again = yield* usageOf(owner)
        expect(again.totals).toMatchObject({ sessions: 3, turns: 6 })
        expect(again.totals.storageBytes).toBeGreaterThan(usage.totals.storageBytes)
        // The other workspace sees only its own.
        expect((yield* usageOf(other)).totals).toMatchObject({ sessions: 1, turns: 1 })
      }))

    it.effect("weeks start on Monday, months on the 1st, and a range widens to whole buckets", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const weeks = yield* usageOf(owner, {
          period: "week",
          from: "2026-01-07T12:00:00Z",
          to: "2026-01-21T00:00:00Z"
        })
        expect(weeks.buckets.map((bucket) => DateTime.formatIso(bucket.start))).toEqual([
          "2026-01-05T00:00:00.000Z",
          "2026-01-12T00:00:00.000Z",
          "2026-01-19T00:00:00.000Z"
        ])
        expect(DateTime.formatIso(weeks.to)).toBe("2026-01-26T00:00:00.000Z")
        const months = yield* usageOf(owner, { period: "month" })
        expect(months.buckets).toHaveLength(12)
        expect(months.buckets.every((bucket) => DateTime.formatIso(bucket.start).slice(8, 10) === "01")).toBe(true)
        expect((yield* usageOf(owner, { period: "week" })).buckets).toHaveLength(12)
      }))

    it.effect("an empty, reversed or too long range is a typed 400; a bad period or date too", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const reversed = yield* failureOf(usageOf(owner, { from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z" }))
        expect(reversed).toMatchObject({ _tag: "UsageRangeInvalid", maxBuckets: 400 })
        const empty = yield* failureOf(usageOf(owner, { from: "2026-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" }))
        expect(empty._tag).toBe("UsageRangeInvalid")
        const future = yield* failureOf(usageOf(owner, { from: "2999-01-01T00:00:00Z" }))
        expect(future._tag).toBe("UsageRangeInvalid")
        const long = yield* failureOf(usageOf(owner, { from: "2020-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" }))
        expect(long).toMatchObject({ _tag: "UsageRangeInvalid" })
        expect(long.message).toContain("400")
        // 400 days is the most.
        const most = yield* usageOf(owner, { from: "2024-01-01T00:00:00Z", to: "2025-02-04T00:00:00Z" })
        expect(most.buckets).toHaveLength(400)
        // Raw: what the typed client would not send.
        for (const query of ["period=year", "from=yesterday", "to=2026-13-45", "period=day%00", "from=%C3%28"]) {
          const answer = yield* exchange(as(HttpClientRequest.get(`/v1/workspaces/usage?${query}`), owner))
          expect(answer.status, query).toBe(400)
        }
      }))

    it.scoped("AI tokens counted by two nodes add up, priced per model; an unlisted model is unpriced", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const workspaceId = owner.workspaceId as WorkspaceId
        const a = Context.get(yield* anotherNode, UsageMeter)
        const b = Context.get(yield* anotherNode, UsageMeter)
        const calls = Array.from({ length: 200 }, (_, i) => i)
        yield* Effect.forEach(calls, (i) =>
          (i % 2 === 0 ? a : b).record({
            workspaceId,
            provider: "openai",
            model: "gpt-4o-mini",
            inputTokens: 1000,
            outputTokens: 100
          }), { concurrency: 16, discard: true })
        yield* b.record({
          workspaceId,
          provider: "openai-compatible",
          model: "my-llama",
          inputTokens: 7,
          outputTokens: 3
        })
        // Both flush at once, twice: increments, never overwrites.
        yield* Effect.all([a.flush, b.flush], { concurrency: 2 })
        yield* a.record({ workspaceId, provider: "openai", model: "gpt-4o-mini", inputTokens: 1000, outputTokens: 100 })
        yield* Effect.all([a.flush, b.flush], { concurrency: 2 })
        const usage = yield* usageOf(owner)
        expect(usage.totals).toMatchObject({ aiTokensIn: 201_007, aiTokensOut: 20_103 })
        // gpt-4o-mini: $0.15 in, $0.60 out per million.
        const mini = 201_000 * 0.15 / 1e6 + 20_100 * 0.6 / 1e6
        expect(usage.totals.aiCostUsd).toBeCloseTo(mini, 6)
        expect(usage.buckets.at(-1)).toMatchObject({ aiTokensIn: 201_007, aiTokensOut: 20_103 })
        expect([...usage.aiByModel].sort((x, y) => x.model.localeCompare(y.model))).toEqual([
          {
            provider: "openai",
            model: "gpt-4o-mini",
            tokensIn: 201_000,
            tokensOut: 20_100,
            costUsd: expect.closeTo(mini, 6),
            priced: true
          },
          { provider: "openai-compatible", model: "my-llama", tokensIn: 7, tokensOut: 3, costUsd: 0, priced: false }
        ])
        const [row] = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ rows: string }>`SELECT count(*)::text AS rows FROM usage_counters WHERE workspace_id = ${workspaceId}
          AND day = ${today()}::date AND model = 'gpt-4o-mini'`
        ).pipe(Effect.orDie)
        // One row per day, metric and model, whichever node counted.
        expect(row!.rows).toBe("3")
      }))

    it.effect(
      "a killed node loses at most one flush interval of counts; a stopped one loses none",
      () =>
        Effect.gen(function*() {
          const owner = yield* signUp()
          const url = yield* Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql<{ db: string }>`SELECT current_database() AS db`
          ).pipe(Effect.orDie)
          const databaseUrl = new URL(
            process.env["PARLEY_TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres"
          )
          databaseUrl.pathname = `/${url[0]!.db}`
          const killed = yield* countInChild(databaseUrl.toString(), owner.workspaceId, 100, "SIGKILL")
          const stored = yield* storedTokensIn(owner.workspaceId)
          // 300 ms between flushes at one count per ~10 ms: about 30 counts unflushed at most, and some flushed.
          const lost = killed - stored
          expect(stored).toBeGreaterThan(0)
          expect(lost).toBeGreaterThanOrEqual(-1)
          expect(lost).toBeLessThanOrEqual(45)
          console.log(`usage meter, killed after ${killed} counts: ${lost} lost (flush interval 300 ms)`)

          const second = yield* signUp()
          const stopped = yield* countInChild(databaseUrl.toString(), second.workspaceId, 50, "SIGTERM")
          const kept = yield* storedTokensIn(second.workspaceId)
          expect(kept - stopped).toBeGreaterThanOrEqual(0)
          expect(kept - stopped).toBeLessThanOrEqual(1)
        }),
      60_000
    )

    it.effect(
      "the tokens of a real LLM call (the agent-llm test, offline default) reach usage within a flush",
      () =>
        Effect.gen(function*() {
          const owner = yield* signUp()
          const client = yield* clientOf(owner)
          const tried = yield* client.agentSettings.testAgentLlm({
            payload: Schema.decodeUnknownSync(LlmConnectionTestRequest)({})
          })
          expect(tried.ok).toBe(true)
          const tokens = tried.usage!
          expect(tokens.inputTokens + tokens.outputTokens).toBeGreaterThan(0)
          // The node counted in memory: no row yet, or soon one, never a write in the request.
          let usage = yield* usageOf(owner)
          for (let waited = 0; usage.totals.aiTokensIn === 0 && waited < 5000; waited += 250) {
            yield* Effect.sleep("250 millis")
            usage = yield* usageOf(owner)
          }
          expect(usage.totals).toMatchObject({
            aiTokensIn: tokens.inputTokens,
            aiTokensOut: tokens.outputTokens,
            aiCostUsd: 0
          })
          expect(usage.aiByModel).toEqual([
            {
              provider: "offline",
              model: tried.model,
              tokensIn: tokens.inputTokens,
              tokensOut: tokens.outputTokens,
              costUsd: 0,
              priced: true
            }
          ])
        }),
      { timeout: 30_000 }
    )

    it.effect("billing: the community plan, unlimited; seats are members, open invitations counted apart", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const status = yield* client.usage.billingStatus()
        expect(status).toMatchObject({
          plan: { key: "community", name: "Community" },
          status: "unmanaged",
          provider: "none",
          seats: { included: null, used: 1, pendingInvitations: 0 },
          renewal: { interval: null, renewsAt: null, cancelAtPeriodEnd: false }
        })
        expect(status.entitlements.features).toContain("ai-agents")
        expect(Object.values(status.entitlements.quotas).every((quota) => quota === null)).toBe(true)
        yield* join(owner, "viewer")
        const invited = yield* post("/v1/workspaces/invitations", { email: "later@example.com", role: "editor" }, {
          token: owner.token,
          address: owner.address
        })
        expect(invited.status).toBe(201)
        expect((yield* client.usage.billingStatus()).seats).toEqual({ included: null, used: 2, pendingInvitations: 1 })
      }))

    it.effect("a viewer reads usage but not billing", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const viewer = yield* join(owner, "viewer")
        const client = yield* clientOf(viewer, owner.workspaceId)
        expect((yield* client.usage.usage({ urlParams: params() })).buckets).toHaveLength(30)
        expect((yield* failureOf(client.usage.billingStatus()))._tag).toBe("Forbidden")
      }))
  }
)

const enterprise = {
  key: "enterprise",
  name: "Enterprise",
  status: "active",
  provider: "manual",
  entitlements: {
    features: ["ai-agents", "sso"],
    quotas: {
      seats: 50,
      assistants: null,
      aiAgents: 20,
      monthlySessions: 100_000,
      monthlyTurns: null,
      monthlyAiTokens: null,
      monthlyVoiceMinutes: 0,
      monthlyWorkflowRuns: null,
      storageBytes: null
    }
  },
  renewal: {
    interval: "year",
    currentPeriodStart: "2026-01-01T00:00:00Z",
    currentPeriodEnd: "2027-01-01T00:00:00Z",
    renewsAt: "2027-01-01T00:00:00Z",
    cancelAtPeriodEnd: false,
    trialEndsAt: null
  }
}

layer(
  testServer({
    PARLEY_PLAN: JSON.stringify(enterprise),
    PARLEY_AI_PRICES: JSON.stringify({ "my-llama": { inputPerMillion: 1, outputPerMillion: 2 } })
  }),
  { excludeTestServices: true }
)("usage on a configured plan and prices", (it) => {
  it.scoped("the plan and the prices come from configuration", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const status = yield* client.usage.billingStatus()
      expect(status).toMatchObject({
        plan: { key: "enterprise", name: "Enterprise" },
        status: "active",
        provider: "manual",
        seats: { included: 50, used: 1, pendingInvitations: 0 },
        renewal: { interval: "year", cancelAtPeriodEnd: false }
      })
      expect(DateTime.formatIso(status.renewal.renewsAt!)).toBe("2027-01-01T00:00:00.000Z")
      const meter = Context.get(yield* anotherNode, UsageMeter)
      const workspaceId = owner.workspaceId as WorkspaceId
      yield* meter.record({
        workspaceId,
        provider: "openai-compatible",
        model: "my-llama",
        inputTokens: 1e6,
        outputTokens: 5e5
      })
      yield* meter.record({ workspaceId, provider: "openai", model: "gpt-4o", inputTokens: 1e6, outputTokens: 0 })
      yield* meter.flush
      const usage = yield* client.usage.usage({ urlParams: params() })
      expect(usage.plan).toEqual({ key: "enterprise", name: "Enterprise" })
      // my-llama at the configured $1 in and $2 out per million, through any provider; gpt-4o still built in.
      expect(usage.totals.aiCostUsd).toBeCloseTo(1 + 1 + 2.5, 6)
    }))
})
