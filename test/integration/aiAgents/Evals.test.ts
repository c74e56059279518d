/**
 * An AI agent's evals over HTTP against the real database, with the offline
 * model scripted for the file (the agent's answers follow its instructions;
 * the judge of rubrics scores replies that say "please" 0.9 and others 0.2):
 * CRUD with its validation (a regex the engine refuses, a JSON schema outside
 * the subset) and without touching the draft's revision; runs against the
 * draft and a version with every expectation kind, history and tool mocks; a
 * model that cannot be reached as an `error` result; a version's eval runs;
 * the publish gate refusing a worse version with the failing case named and
 * accepting it after the fix; the enabled suite run by a client against the
 * draft and a version, stored and listed, refused when empty or too large,
 * and storing nothing when its client leaves mid-run (a loopback tool keeps
 * a case waiting); roles and another workspace.
 */
import type { Prompt } from "@effect/ai"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { AiAgentEvalCreate } from "../../../src/domain/aiAgents/Eval.js"
import { JUDGE_PREAMBLE } from "../../../src/domain/aiAgents/evals/RubricVerdict.js"
import { MAX_SUITE_CASES } from "../../../src/domain/aiAgents/EvalSuite.js"
import type { AiAgentVersionNumber } from "../../../src/domain/aiAgents/Ids.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { AgentOpsSettingsPatch } from "../../../src/domain/settings/AgentOpsSettings.js"
import {
  messageText,
  type OfflineReply,
  OfflineScript,
  type OfflineTurn
} from "../../../src/providers/llm/OfflineScript.js"
import { post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoServer } from "../../support/EchoServer.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow, revisionOf } from "./AgentRows.js"

const noHeaders = { headers: {} } as const
const toolCommand = /^\/call\s+([A-Za-z0-9_]+)\s*([\s\S]*)$/

/** The judge: 0.9 for a reply that says "please", 0.2 otherwise, prose for a reply about gibberish. */
const judge = (last: Prompt.Message): OfflineReply => {
  const asked = messageText(last)
  const reply = asked.slice(asked.indexOf("The agent's reply:"))
  if (reply.includes("gibberish")) return { text: "I liked it a lot" }
  return {
    text: JSON.stringify(reply.includes("please") ? { score: 0.9, reason: "Polite" } : { score: 0.2, reason: "Curt" })
  }
}

/** The agent: its answer follows the instructions (the system message) and the last message. */
const script = (turn: OfflineTurn): OfflineReply => {
  const messages = turn.prompt.content
  const system = messages[0]?.role === "system" ? messageText(messages[0]) : ""
  const last = messages.at(-1)!
  if (system.startsWith(JUDGE_PREAMBLE)) return judge(last)
  if (last.role === "tool") {
    const results = last.content.map((part) => `${part.name} answered ${JSON.stringify(part.result)}`)
    return { text: `Order status: ${results.join("; ")}` }
  }
  const text = messageText(last).trim()
  const command = toolCommand.exec(text)
  if (command !== null) return { toolCalls: [{ name: command[1]!, params: JSON.parse(command[2]!) }] }
  if (text === "json please") return { text: "Here, please:\n```json\n{\"status\": \"open\", \"count\": 2}\n```" }
  if (system.includes("Be curt")) return { text: "No." }
  const earlier = messages.filter((message) => message.role === "user" || message.role === "assistant").length - 1
  const refunds = system.includes("Never mention refunds") ? "" : " Refunds take 5 days."
  return { text: `Hello, please note: you said "${text}" after ${earlier} earlier messages.${refunds}` }
}

const evalCase = (name: string, more: Record<string, unknown>) =>
  Schema.decodeUnknownSync(AiAgentEvalCreate)({ name, ...more })

/** The three cases of the publish scenario. */
const suite = [
  evalCase("greets politely", {
    conversation: [{ role: "user", content: "Hello" }],
    expectations: [{ kind: "contains", value: "please" }, { kind: "llm-rubric", rubric: "Is polite" }]
  }),
  evalCase("refund policy", {
    conversation: [{ role: "user", content: "How long do refunds take?" }],
    expectations: [{ kind: "regex", pattern: "Refunds take \\d+ days" }],
    tags: ["refunds"]
  }),
  evalCase("looks up orders", {
    conversation: [{ role: "user", content: `/call lookup_order {"orderId":"A7","verbose":true}` }],
    expectations: [
      { kind: "tool-called", tool: "lookup_order", arguments: { value: { orderId: "A7" } } },
      { kind: "contains", value: "shipped" }
    ],
    toolMocks: [{ tool: "lookup_order", output: { status: "shipped" } }],
    weight: 2
  })
]

/** A workspace's agent with instructions and an HTTP tool `lookup_order` (mocked in the cases that call it). */
const setup = (instructions = "Help customers") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const owner = yield* signUp()
    const client = yield* clientOf(owner)
    const agent = yield* agentRow(owner.workspaceId)
    const path = { slug: agent.slug }
    yield* sql`UPDATE ai_agents SET instructions = ${instructions} WHERE id = ${agent.id}`
    const tool = yield* client.aiAgentTools.create({
      path,
      payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
        name: "lookup_order",
        description: "Looks an order up",
        config: {
          kind: "http",
          inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
          method: "GET",
          url: "https://orders.example.com/lookup"
        }
      }),
      ...noHeaders
    })
    const setInstructions = (text: string) =>
      sql`UPDATE ai_agents SET instructions = ${text}, revision = revision + 1 WHERE id = ${agent.id}`.pipe(
        Effect.orDie
      )
    return { owner, client, agent, path, tool, setInstructions }
  })

const gatesOn = (owner: TestAccount, gates: Record<string, unknown>) =>
  Effect.flatMap(clientOf(owner), (client) =>
    client.agentSettings.updateAgentOps({
      payload: Schema.decodeUnknownSync(AgentOpsSettingsPatch)({ publishGates: gates })
    }))

// Loopback tools are allowed so a case can wait on one (`EchoServer`'s `/slow`).
const server = testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }).pipe(
  Layer.provide(Layer.succeed(OfflineScript, script))
)

layer(server, { excludeTestServices: true })("AI agent evals", (it) => {
  it.effect("CRUD: by name, filters, unique names, checked regexes and schemas, and no draft revision bump", () =>
    Effect.gen(function*() {
      const { agent, client, path } = yield* setup()
      const before = yield* revisionOf(agent.id)
      const created = yield* Effect.forEach(suite, (body) => client.aiAgentEvals.create({ path, payload: body }))
      expect(created[0]).toMatchObject({
        name: "greets politely",
        agentId: agent.id,
        description: "",
        weight: 1,
        enabled: true,
        tags: [],
        toolMocks: [],
        endUserId: null,
        variables: {}
      })
      expect(created[0]!.expectations[1]).toEqual({ kind: "llm-rubric", rubric: "Is polite", passingScore: 0.7 })
      expect(yield* revisionOf(agent.id)).toBe(before)

      const names = (urlParams: Record<string, unknown> = {}) =>
        Effect.map(client.aiAgentEvals.list({ path, urlParams }), (page) => page.items.map((item) => item.name))
      expect(yield* names()).toEqual(["greets politely", "looks up orders", "refund policy"])
      expect(yield* names({ tag: "refunds" })).toEqual(["refund policy"])
      const [greets, refunds, lookup] = created
      yield* client.aiAgentEvals.update({ path: { ...path, eid: refunds!.id }, payload: { enabled: false } })
      expect(yield* names({ enabled: false })).toEqual(["refund policy"])
      expect((yield* client.aiAgentEvals.list({ path, urlParams: { limit: 1, offset: 1 } })).total).toBe(3)
      expect(yield* client.aiAgentEvals.get({ path: { ...path, eid: lookup!.id } })).toEqual(lookup)

      const taken = yield* client.aiAgentEvals.create({ path, payload: suite[0]! }).pipe(Effect.flip)
      expect(taken._tag).toBe("AiAgentEvalNameTaken")
      const renamed = yield* client.aiAgentEvals.updateById({
        path,
        payload: { id: greets!.id, name: "refund policy" }
      }).pipe(Effect.flip)
      expect(renamed._tag).toBe("AiAgentEvalNameTaken")

      const invalid = yield* client.aiAgentEvals.create({
        path,
        payload: evalCase("broken", {
          conversation: [{ role: "user", content: "Hi" }],
          expectations: [
            { kind: "regex", pattern: "(a)\\1" },
            { kind: "json-schema", schema: { type: "object", oneOf: [] } },
            { kind: "regex", pattern: "fine" }
          ]
        })
      }).pipe(Effect.flip)
      expect(invalid._tag).toBe("AiAgentEvalInvalid")
      expect(invalid._tag === "AiAgentEvalInvalid" && invalid.problems.map((problem) => problem.field)).toEqual([
        "expectations.0.pattern",
        "expectations.1.schema.oneOf"
      ])
      const badUpdate = yield* client.aiAgentEvals.update({
        path: { ...path, eid: greets!.id },
        payload: { expectations: [{ kind: "regex", pattern: "(?<=x)y", flags: "" }] }
      }).pipe(Effect.flip)
      expect(badUpdate._tag).toBe("AiAgentEvalInvalid")

      yield* client.aiAgentEvals.delete({ path: { ...path, eid: greets!.id } })
      yield* client.aiAgentEvals.deleteById({ path, urlParams: { id: lookup!.id } })
      const gone = yield* client.aiAgentEvals.get({ path: { ...path, eid: greets!.id } }).pipe(Effect.flip)
      expect(gone._tag).toBe("AiAgentEvalNotFound")
      expect(yield* names()).toEqual(["refund policy"])
      expect(yield* revisionOf(agent.id)).toBe(before)
    }))

  it.effect("a run against the draft: every expectation kind, history, tool mocks, the judge, stored", () =>
    Effect.gen(function*() {
      const { agent, client, path, tool } = yield* setup()
      const create = (body: typeof AiAgentEvalCreate.Type) => client.aiAgentEvals.create({ path, payload: body })
      const run = (eid: string) => client.aiAgentEvals.run({ path: { ...path, eid: eid as never }, payload: {} })

      const allKinds = yield* create(evalCase("all kinds", {
        conversation: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello!" },
          { role: "user", content: "json please" }
        ],
        expectations: [
          { kind: "contains", value: "STATUS" },
          { kind: "not-contains", value: "sorry" },
          { kind: "regex", pattern: "\"count\":\\s*(\\d)" },
          {
            kind: "json-schema",
            schema: {
              type: "object",
              properties: { status: { type: "string", enum: ["open", "closed"] } },
              required: ["status"]
            }
          },
          { kind: "llm-rubric", rubric: "Answers politely with JSON" }
        ]
      }))
      const passed = yield* run(allKinds.id)
      expect(passed).toMatchObject({
        agentId: agent.id,
        version: null,
        draftRevision: yield* revisionOf(agent.id),
        trigger: "manual",
        status: "passed",
        caseCount: 1,
        passedCount: 1,
        error: null,
        model: { provider: "offline" }
      })
      const [result] = passed.results
      // Four expectations score 1, the judge 0.9.
      expect(passed.score).toBeCloseTo(4.9 / 5)
      expect(result!.expectations.map((e) => [e.kind, e.passed])).toEqual([
        ["contains", true],
        ["not-contains", true],
        ["regex", true],
        ["json-schema", true],
        ["llm-rubric", true]
      ])
      expect(result!.expectations[4]).toMatchObject({
        score: 0.9,
        reason: "The judge scored 0.9 (at least 0.7): Polite"
      })
      // The agent's tokens and the judge's.
      expect(result!.usage.inputTokens).toBeGreaterThan(0)
      expect(passed.usage).toEqual(result!.usage)
      expect(result!.reply).toContain("```json")

      // Earlier messages are history; failures say why, the rubric's score counts in the mean.
      const history = yield* create(evalCase("history", {
        conversation: [
          { role: "user", content: "A" },
          { role: "assistant", content: "B" },
          { role: "user", content: "gibberish" }
        ],
        expectations: [
          { kind: "contains", value: "after 2 earlier messages" },
          { kind: "contains", value: "Refunds", caseSensitive: true },
          { kind: "not-contains", value: "please" },
          { kind: "tool-called", tool: "lookup_order" },
          { kind: "json-schema", schema: { type: "object" } },
          { kind: "llm-rubric", rubric: "Is helpful" }
        ],
        weight: 3
      }))
      const failed = yield* run(history.id)
      expect(failed).toMatchObject({ status: "failed", passedCount: 0, caseCount: 1 })
      expect(failed.results[0]!.expectations.map((e) => e.passed)).toEqual([true, true, false, false, false, false])
      expect(failed.results[0]!.score).toBeCloseTo(2 / 6)
      expect(failed.score).toBeCloseTo(2 / 6)
      expect(failed.results[0]!.weight).toBe(3)
      expect(failed.results[0]!.expectations[3]!.reason).toBe("The agent did not call lookup_order (it called no tool)")
      expect(failed.results[0]!.expectations[5]!.reason).toContain("could not be read")

      // A tool mock answers the tool: it is not run, the model reads the mock's output.
      const lookup = yield* create(suite[2]!)
      const mocked = yield* run(lookup.id)
      expect(mocked.status).toBe("passed")
      expect(mocked.results[0]!.toolCalls).toEqual([expect.objectContaining({
        name: "lookup_order",
        toolId: tool.id,
        arguments: { orderId: "A7", verbose: true },
        status: "succeeded",
        result: { status: "shipped" }
      })])
      expect(mocked.results[0]!.reply).toBe(`Order status: lookup_order answered {"status":"shipped"}`)
      const exact = yield* client.aiAgentEvals.update({
        path: { ...path, eid: lookup.id },
        payload: {
          expectations: [{
            kind: "tool-called",
            tool: "lookup_order",
            arguments: { match: "exact", value: { orderId: "A7" } }
          }]
        }
      })
      const notExact = yield* run(exact.id)
      expect(notExact.status).toBe("failed")
      expect(notExact.results[0]!.expectations[0]!.reason).toContain(`it sent {"orderId":"A7","verbose":true}`)

      // Draft runs are not a version's.
      yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders })
      const page = yield* client.aiAgentEvals.listEvalRuns({
        path: { ...path, vid: 1 as AiAgentVersionNumber },
        urlParams: {}
      })
      expect(page.total).toBe(0)

      // The playground's transcript runs through the same stateless run.
      const played = yield* client.aiAgents.playground({
        path,
        urlParams: { stream: false },
        headers: {},
        payload: {
          messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Yo" }, {
            role: "user",
            content: "Q"
          }]
        }
      })
      expect(played.message.content).toBe(
        `Hello, please note: you said "Q" after 2 earlier messages. Refunds take 5 days.`
      )
      expect(played.conversationId).toBeNull()
    }))

  it.effect("a run against a version, a version's runs newest first with filters, and a model failure as `error`", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { agent, client, path, setInstructions } = yield* setup()
      const refunds = yield* client.aiAgentEvals.create({ path, payload: suite[1]! })
      yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders })
      yield* setInstructions("Help customers. Never mention refunds.")
      const run = (payload: { readonly version?: AiAgentVersionNumber }) =>
        client.aiAgentEvals.run({ path: { ...path, eid: refunds.id }, payload })
      const onDraft = yield* run({})
      expect(onDraft).toMatchObject({ status: "failed", version: null, score: 0 })
      expect(onDraft.results[0]!.expectations[0]!.reason).toBe("The reply does not match /Refunds take \\d+ days/")
      const v1 = 1 as AiAgentVersionNumber
      const onVersion = yield* run({ version: v1 })
      expect(onVersion).toMatchObject({ status: "passed", version: 1, draftRevision: null, score: 1 })
      const second = yield* run({ version: v1 })
      const missing = yield* run({ version: 9 as AiAgentVersionNumber }).pipe(Effect.flip)
      expect(missing._tag).toBe("AiAgentVersionNotFound")

      const list = (urlParams: Record<string, unknown>) =>
        client.aiAgentEvals.listEvalRuns({ path: { ...path, vid: v1 }, urlParams })
      const all = yield* list({})
      expect(all.items.map((item) => item.id)).toEqual([second.id, onVersion.id])
      expect(all.items[0]!.results[0]!.expectations[0]!.passed).toBe(true)
      expect((yield* list({ limit: 1, offset: 1 })).items.map((item) => item.id)).toEqual([onVersion.id])
      expect((yield* list({ status: "failed" })).total).toBe(0)
      expect((yield* list({ trigger: "manual", status: "passed" })).total).toBe(2)
      expect((yield* list({ trigger: "publish-gate" })).total).toBe(0)
      const noVersion = yield* client.aiAgentEvals.listEvalRuns({
        path: { ...path, vid: 7 as AiAgentVersionNumber },
        urlParams: {}
      }).pipe(Effect.flip)
      expect(noVersion._tag).toBe("AiAgentVersionNotFound")

      // A model that cannot be reached: the case is an `error`, answered 200 and stored.
      yield* sql`UPDATE ai_agents SET model_settings = model_settings ||
        '{"model":{"source":"explicit","provider":"anthropic","model":"claude-x"}}'::jsonb, revision = revision + 1
        WHERE id = ${agent.id}`
      const broken = yield* run({})
      expect(broken).toMatchObject({ status: "error", score: 0, passedCount: 0, model: null })
      expect(broken.results[0]).toMatchObject({ status: "error", score: 0, reply: null, expectations: [] })
      expect(broken.error).toContain("anthropic")
      expect(broken.results[0]!.error).toBe(broken.error)
    }))

  it.effect("the publish gate: three cases, a worse version refused naming the failing case, accepted after the fix", () =>
    Effect.gen(function*() {
      const { client, owner, path, setInstructions } = yield* setup()
      yield* gatesOn(owner, { runEvalsOnPublish: true, minimumScore: 0.5, mustNotRegress: true })
      const none = yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(none._tag).toBe("AiAgentDraftNotPublishable")
      expect(none._tag === "AiAgentDraftNotPublishable" && none.problems.map((p) => p.code)).toEqual(["no-eval-cases"])

      const cases = yield* Effect.forEach(suite, (body) => client.aiAgentEvals.create({ path, payload: body }))
      // A disabled case is left out of the gate.
      yield* client.aiAgentEvals.create({
        path,
        payload: evalCase("always fails", {
          conversation: [{ role: "user", content: "Hi" }],
          expectations: [{ kind: "contains", value: "never said" }],
          enabled: false
        })
      })
      const first = yield* client.aiAgentReleases.publish({ path, payload: { notes: "v1" }, ...noHeaders })
      expect(first.version.number).toBe(1)
      // Weights 1, 1 and 2; "greets politely" scores (1 + 0.9) / 2, its judge's 0.9 counting.
      const full = (0.95 + 1 + 2) / 4
      expect(first.evalGate).toMatchObject({ minimumScore: 0.5, liveScore: null, passed: true, caseCount: 3 })
      expect(first.evalGate!.score).toBeCloseTo(full)
      expect(first.evalGate!.failingCases).toEqual([])
      expect(first.version).toMatchObject({ evalScore: first.evalGate!.score, evalRunId: first.evalGate!.evalRunId })
      const v1Runs = yield* client.aiAgentEvals.listEvalRuns({
        path: { ...path, vid: 1 as AiAgentVersionNumber },
        urlParams: {}
      })
      expect(v1Runs.items.map((run) => [run.id, run.trigger, run.caseCount, run.draftRevision])).toEqual([
        [first.evalGate!.evalRunId, "publish-gate", 3, null]
      ])

      // A worse draft: it no longer states the refund policy.
      yield* setInstructions("Help customers. Never mention refunds.")
      const refused = yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(refused._tag).toBe("AiAgentPublishRefused")
      if (refused._tag !== "AiAgentPublishRefused") return
      expect(refused.reasons).toEqual(["below-live-version"])
      expect(refused.evalGate).toMatchObject({ liveScore: first.evalGate!.score, passed: false, caseCount: 3 })
      expect(refused.evalGate.score).toBeCloseTo((0.95 + 0 + 2) / 4)
      expect(refused.evalGate.failingCases.map((c) => [c.name, c.status, c.evalId])).toEqual([
        ["refund policy", "failed", cases[1]!.id]
      ])
      expect(refused.evalGate.failingCases[0]!.expectations[0]!.reason).toBe(
        "The reply does not match /Refunds take \\d+ days/"
      )
      expect(refused.message).toContain("failing cases: refund policy")
      const versions = yield* client.aiAgentReleases.listVersions({ path, urlParams: {} })
      expect(versions.items.map((v) => [v.number, v.live])).toEqual([[1, true]])

      // Under the minimum too, when the minimum is higher.
      yield* gatesOn(owner, { minimumScore: 0.9, mustNotRegress: false })
      const low = yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(low._tag === "AiAgentPublishRefused" && low.reasons).toEqual(["below-minimum-score"])
      expect(low._tag === "AiAgentPublishRefused" && low.evalGate.liveScore).toBeNull()
      yield* gatesOn(owner, { minimumScore: 0.5, mustNotRegress: true })

      // The fix: the policy is back; version 2 goes live with its run attached.
      yield* setInstructions("Help customers kindly")
      const fixed = yield* client.aiAgentReleases.publish({ path, payload: { notes: "fixed" }, ...noHeaders })
      expect(fixed.version).toMatchObject({ number: 2, live: true, evalScore: first.evalGate!.score })
      expect(fixed.evalGate).toMatchObject({ score: first.evalGate!.score, liveScore: first.evalGate!.score })
      expect(fixed.evalGate!.passed).toBe(true)
      const v2Runs = yield* client.aiAgentEvals.listEvalRuns({
        path: { ...path, vid: 2 as AiAgentVersionNumber },
        urlParams: {}
      })
      expect(v2Runs.items.map((run) => run.id)).toEqual([fixed.evalGate!.evalRunId])
      // Version 1 ran as the baseline of both gated publishes (its own gate run, then two baselines).
      const baseline = yield* client.aiAgentEvals.listEvalRuns({
        path: { ...path, vid: 1 as AiAgentVersionNumber },
        urlParams: { trigger: "publish-gate" }
      })
      expect(baseline.total).toBe(3)
      expect(baseline.items.every((run) => run.score === first.evalGate!.score)).toBe(true)

      // Analytics read the versions' suite runs: two versions, every case of their runs passed.
      const analytics = yield* client.aiAgentConversations.getAnalytics({ path, urlParams: { days: 7 } })
      expect(analytics.evals).toEqual({ runs: 2, passRate: 1, latestScore: first.evalGate!.score })
    }))

  it.effect("the suite: enabled cases against the draft and a version, stored, scored as the gate scores", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { agent, client, owner, path, setInstructions } = yield* setup()
      const runSuite = (payload: { readonly version?: AiAgentVersionNumber }) =>
        client.aiAgentEvals.runSuite({ path, payload })
      const empty = yield* runSuite({}).pipe(Effect.flip)
      expect(empty).toMatchObject({ _tag: "AiAgentEvalSuiteNotRunnable", enabledCases: 0, maximum: MAX_SUITE_CASES })

      // Three cases, one disabled: the suite is the two enabled ones, by name.
      const greets = yield* client.aiAgentEvals.create({ path, payload: suite[0]! })
      const lookup = yield* client.aiAgentEvals.create({ path, payload: suite[2]! })
      yield* client.aiAgentEvals.create({
        path,
        payload: evalCase("always fails", {
          conversation: [{ role: "user", content: "Hi" }],
          expectations: [{ kind: "contains", value: "never said" }],
          enabled: false
        })
      })
      const onDraft = yield* runSuite({})
      expect(onDraft.run).toMatchObject({
        agentId: agent.id,
        version: null,
        draftRevision: yield* revisionOf(agent.id),
        trigger: "manual",
        status: "passed",
        caseCount: 2,
        passedCount: 2,
        error: null
      })
      expect(onDraft.run.results.map((result) => [result.evalId, result.status])).toEqual([
        [greets.id, "passed"],
        [lookup.id, "passed"]
      ])
      // Weights 1 and 2; "greets politely" scores (1 + 0.9) / 2, as in the publish gate.
      expect(onDraft.run.score).toBeCloseTo((0.95 + 2) / 3)
      expect(onDraft.passRate).toBe(1)
      expect(onDraft.caseLatencyMs).toBe(onDraft.run.results.reduce((sum, result) => sum + result.latencyMs, 0))
      const tokens = onDraft.run.results.reduce((sum, result) => sum + result.usage.inputTokens, 0)
      expect(onDraft.run.usage.inputTokens).toBe(tokens)
      expect(tokens).toBeGreaterThan(0)

      // Version 1 is the polite agent; the draft turns curt and fails one case of two.
      yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders })
      yield* setInstructions("Help customers. Be curt.")
      const curt = yield* runSuite({})
      expect(curt.run).toMatchObject({ status: "failed", caseCount: 2, passedCount: 1, version: null })
      expect(curt.passRate).toBe(0.5)
      // "greets politely": `contains` 0 and the judge's 0.2.
      expect(curt.run.score).toBeCloseTo((0.1 + 2) / 3)
      expect(curt.run.results[0]!.expectations.map((e) => e.passed)).toEqual([false, false])

      const v1 = 1 as AiAgentVersionNumber
      const onVersion = yield* runSuite({ version: v1 })
      expect(onVersion.run).toMatchObject({ status: "passed", version: 1, draftRevision: null, caseCount: 2 })
      expect(onVersion.passRate).toBe(1)
      // Stored as one run of the version, with a result per case; draft runs are not the version's.
      const listed = yield* client.aiAgentEvals.listEvalRuns({ path: { ...path, vid: v1 }, urlParams: {} })
      expect(listed.items).toEqual([onVersion.run])
      const missing = yield* runSuite({ version: 9 as AiAgentVersionNumber }).pipe(Effect.flip)
      expect(missing._tag).toBe("AiAgentVersionNotFound")

      // The suite a gate or a client runs is bounded: one enabled case too many is refused, before any model call.
      yield* sql`INSERT INTO ai_agent_evals (id, workspace_id, agent_id, name, description, conversation,
          expectations, variables, end_user_id, tool_mocks, weight, tags, enabled, created_at, updated_at)
        SELECT gen_random_uuid(), workspace_id, agent_id, name || ' ' || n, description, conversation, expectations,
          variables, end_user_id, tool_mocks, weight, tags, true, now(), now()
        FROM ai_agent_evals, generate_series(1, ${MAX_SUITE_CASES - 1}) AS n WHERE id = ${greets.id}`
      const tooMany = yield* runSuite({}).pipe(Effect.flip)
      expect(tooMany).toMatchObject({
        _tag: "AiAgentEvalSuiteNotRunnable",
        enabledCases: MAX_SUITE_CASES + 1,
        maximum: MAX_SUITE_CASES
      })
      yield* gatesOn(owner, { runEvalsOnPublish: true })
      const gated = yield* client.aiAgentReleases.publish({ path, payload: {}, ...noHeaders }).pipe(Effect.flip)
      expect(gated._tag === "AiAgentDraftNotPublishable" && gated.problems.map((p) => p.code)).toEqual([
        "too-many-eval-cases"
      ])
      const runs = yield* client.aiAgentEvals.listEvalRuns({ path: { ...path, vid: v1 }, urlParams: {} })
      expect(runs.total).toBe(1)
    }))

  it.scoped("a suite whose client leaves before it finishes stores no run; one that finishes stores one", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const slow = yield* echoServer
      const { agent, client, owner, path } = yield* setup()
      yield* client.aiAgentTools.create({
        path,
        payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
          name: "slow_lookup",
          description: "Looks an order up, slowly",
          config: { kind: "http", inputSchema: { type: "object" }, method: "GET", url: slow.url("/slow?ms=1500") }
        }),
        ...noHeaders
      })
      yield* client.aiAgentEvals.create({ path, payload: suite[0]! })
      yield* client.aiAgentEvals.create({
        path,
        payload: evalCase("waits on a slow tool", {
          conversation: [{ role: "user", content: `/call slow_lookup {"orderId":"A7"}` }],
          expectations: [{ kind: "contains", value: "slow_lookup answered" }]
        })
      })
      const stored = Effect.map(
        sql<{ count: number }>`SELECT count(*)::int AS count FROM ai_agent_eval_runs WHERE agent_id = ${agent.id}`,
        ([row]) => row!.count
      )
      const request = post(`/v1/ai-agents/${agent.slug}/evals/run`, {}, owner)
      // The client gives up while the slow case waits on its tool: the server interrupts the run.
      expect(Option.isNone(yield* Effect.timeoutOption(request, "600 millis"))).toBe(true)
      expect(slow.requests.some((one) => one.url.startsWith("/slow"))).toBe(true)
      yield* Effect.sleep("2500 millis")
      expect(yield* stored).toBe(0)

      const finished = yield* request
      expect(finished.status).toBe(200)
      expect(finished.json.run).toMatchObject({ status: "passed", caseCount: 2, passedCount: 2 })
      expect(yield* stored).toBe(1)
    }))

  it.effect("roles: a viewer reads, an editor writes and runs; another workspace sees no agent", () =>
    Effect.gen(function*() {
      const { client, owner, path } = yield* setup()
      const created = yield* client.aiAgentEvals.create({ path, payload: suite[0]! })
      const item = { ...path, eid: created.id }
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      expect((yield* viewer.aiAgentEvals.list({ path, urlParams: {} })).total).toBe(1)
      expect((yield* viewer.aiAgentEvals.get({ path: item })).id).toBe(created.id)
      const refused = yield* viewer.aiAgentEvals.create({ path, payload: suite[1]! }).pipe(Effect.flip)
      expect(refused._tag).toBe("Forbidden")
      expect((yield* viewer.aiAgentEvals.run({ path: item, payload: {} }).pipe(Effect.flip))._tag).toBe("Forbidden")
      expect((yield* viewer.aiAgentEvals.runSuite({ path, payload: {} }).pipe(Effect.flip))._tag).toBe("Forbidden")
      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
      expect((yield* editor.aiAgentEvals.run({ path: item, payload: {} })).status).toBe("passed")
      expect((yield* editor.aiAgentEvals.runSuite({ path, payload: {} })).run.caseCount).toBe(1)
      yield* editor.aiAgentEvals.update({ path: item, payload: { weight: 5 } })

      const stranger = yield* clientOf(yield* signUp())
      const notFound = [
        yield* stranger.aiAgentEvals.list({ path, urlParams: {} }).pipe(Effect.flip),
        yield* stranger.aiAgentEvals.get({ path: item }).pipe(Effect.flip),
        yield* stranger.aiAgentEvals.run({ path: item, payload: {} }).pipe(Effect.flip),
        yield* stranger.aiAgentEvals.runSuite({ path, payload: {} }).pipe(Effect.flip),
        yield* stranger.aiAgentEvals.delete({ path: item }).pipe(Effect.flip),
        yield* stranger.aiAgentEvals.listEvalRuns({ path: { ...path, vid: 1 as AiAgentVersionNumber }, urlParams: {} })
          .pipe(Effect.flip)
      ]
      expect(notFound.map((error) => error._tag)).toEqual(Array(6).fill("AiAgentNotFound"))
      expect((yield* client.aiAgentEvals.get({ path: item })).weight).toBe(5)
    }))
})
