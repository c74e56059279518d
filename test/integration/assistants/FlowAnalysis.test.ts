/**
 * `GET /flow/analysis` over real HTTP and the real database: the findings of
 * the draft as it stands (errors first, counts, deployable), the NLU report,
 * the analysis following each edit and repair, viewers reading it, and
 * other workspaces seeing a 404.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AssistantCreate } from "../../../src/domain/assistants/Assistant.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

const at = (x: number, y: number) => ({ x, y })

const send = (account: TestAccount, method: "get" | "put" | "post", url: string, body?: unknown) => {
  const request = HttpClientRequest[method](url)
  return exchange(as(body === undefined ? request : HttpClientRequest.bodyUnsafeJson(request, body), account))
}

const newAssistant = (account: TestAccount) =>
  Effect.flatMap(
    clientOf(account),
    (client) =>
      Effect.map(client.assistants.create({ payload: AssistantCreate.make({ name: "Analysed" }) }), (a) => a.id)
  )

const addIntent = (account: TestAccount, agentId: string, name: string, utterances: ReadonlyArray<string>) =>
  send(account, "post", `/v1/agents/${agentId}/intents`, { name, utterances })

/** A router with a typo'd intent, a question without fallback, an orphan and a handoff. */
const messy = {
  nodes: [
    { id: "start", type: "start", position: at(0, 0), data: {} },
    { id: "route", type: "intent-router", position: at(0, 100), data: { intents: ["refnd", "greet"] } },
    {
      id: "ask",
      type: "question",
      position: at(0, 200),
      data: { prompt: "Name?", variable: "name", validation: { kind: "text" } }
    },
    { id: "thanks", type: "message", position: at(0, 300), data: { text: "Thanks {{name}}" } },
    { id: "human", type: "handoff", position: at(200, 200), data: { target: { kind: "default" } } },
    { id: "orphan", type: "message", position: at(400, 0), data: { text: "Nobody comes here" } },
    { id: "end", type: "end", position: at(0, 400), data: {} }
  ],
  edges: [
    { id: "e1", source: "start", target: "route", kind: "next" },
    { id: "e2", source: "route", target: "ask", kind: "intent", intent: "refnd" },
    { id: "e3", source: "route", target: "human", kind: "intent", intent: "greet" },
    { id: "e4", source: "route", target: "end", kind: "fallback" },
    { id: "e5", source: "ask", target: "thanks", kind: "answered" },
    { id: "e6", source: "thanks", target: "end", kind: "next" },
    { id: "e7", source: "orphan", target: "end", kind: "next" }
  ]
}

const codes = (json: { findings: ReadonlyArray<{ code: string; severity: string; nodeIds: ReadonlyArray<string> }> }) =>
  json.findings.map((finding) => [finding.severity, finding.code, finding.nodeIds])

layer(testServer(), { excludeTestServices: true })("flow analysis", (it) => {
  it.effect("answers every finding of the draft, errors first, with counts and the NLU report", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      yield* addIntent(owner, agentId, "refund", ["I want a refund", "money back please", "return my order"])
      yield* addIntent(owner, agentId, "greet", ["hello", "hi there", "good morning"])
      const written = yield* send(owner, "put", `/v1/agents/${agentId}/flow`, messy)
      expect(written.status).toBe(200)

      const analysis = yield* send(owner, "get", `/v1/agents/${agentId}/flow/analysis`)
      expect(analysis.status).toBe(200)
      expect(analysis.json).toMatchObject({
        agentId,
        revision: 4,
        deployable: false,
        errorCount: 2,
        warningCount: 3
      })
      expect(codes(analysis.json)).toEqual([
        ["error", "undefined-intent", ["route"]],
        ["error", "node-unavailable", ["human"]],
        ["warning", "unreachable-node", ["orphan"]],
        ["warning", "question-without-fallback", ["ask"]],
        ["warning", "unused-intent", []]
      ])
      expect(analysis.json.findings[0]).toMatchObject({ intents: ["refnd"], repairable: true })
      expect(analysis.json.findings[0].message).toContain("did you mean refund?")
      expect(Date.parse(analysis.json.analysedAt)).not.toBeNaN()
      expect(["computing", "insufficient-data", "ready", "stale"]).toContain(analysis.json.nlu.status)
    }))

  it.effect("the NLU report shows the automatic threshold with its expected accuracy and recall", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      yield* addIntent(owner, agentId, "refund", [
        "I want a refund",
        "money back please",
        "return my order",
        "refund me"
      ])
      yield* addIntent(owner, agentId, "greet", ["hello", "hi there", "good morning", "hey"])
      yield* addIntent(owner, agentId, "weather", ["will it rain", "weather today", "is it sunny", "forecast"])
      let nlu = (yield* send(owner, "get", `/v1/agents/${agentId}/flow/analysis`)).json.nlu
      for (let tries = 0; nlu.status !== "ready" && tries < 200; tries++) {
        yield* Effect.sleep("50 millis")
        nlu = (yield* send(owner, "get", `/v1/agents/${agentId}/flow/analysis`)).json.nlu
      }
      expect(nlu.status).toBe("ready")
      expect(nlu.threshold.value).toBeGreaterThan(0)
      expect(nlu.threshold.value).toBeLessThan(1)
      // The rule: at least 90% of the cross-validated right answers kept.
      expect(nlu.threshold.inScopeAccuracy).toBeGreaterThanOrEqual(0.9 * nlu.accuracy - 1e-9)
      expect(nlu.threshold.outOfScopeRecall).toBeGreaterThanOrEqual(0)
      expect(nlu.threshold.outOfScopeRecall).toBeLessThanOrEqual(1)
    }))

  it.effect("follows each edit and repair: a repaired draft is deployable", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const base = `/v1/agents/${agentId}/flow`
      yield* addIntent(owner, agentId, "refund", ["I want a refund", "money back please", "return my order"])
      yield* addIntent(owner, agentId, "greet", ["hello", "hi there", "good morning"])
      yield* send(owner, "put", base, {
        nodes: messy.nodes.filter((node) => node.id !== "human" && node.id !== "orphan"),
        edges: messy.edges.filter((edge) => edge.target !== "human" && edge.source !== "orphan")
      })
      const before = yield* send(owner, "get", `${base}/analysis`)
      expect(codes(before.json)).toEqual([
        ["error", "dead-end", ["route"]],
        ["error", "undefined-intent", ["route"]],
        ["warning", "question-without-fallback", ["ask"]],
        ["warning", "unused-intent", []]
      ])
      yield* send(owner, "post", `${base}/repair-node`, { nodeId: "route" })
      yield* send(owner, "post", `${base}/repair-node`, { nodeId: "ask" })
      const after = yield* send(owner, "get", `${base}/analysis`)
      expect(after.json).toMatchObject({ revision: 6, deployable: true, errorCount: 0, warningCount: 0, findings: [] })
    }))

  it.effect("an empty draft has no start: not deployable", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const analysis = yield* send(owner, "get", `/v1/agents/${agentId}/flow/analysis`)
      expect(codes(analysis.json)).toEqual([["error", "missing-start", []]])
      expect(analysis.json.nlu.status).toBe("insufficient-data")
    }))

  it.effect("viewers read it; another workspace gets a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const viewer = yield* join(owner, "viewer")
      const read = yield* send(
        { ...viewer, workspaceId: owner.workspaceId },
        "get",
        `/v1/agents/${agentId}/flow/analysis`
      )
      expect(read.status).toBe(200)
      const stranger = yield* signUp()
      const elsewhere = yield* send(stranger, "get", `/v1/agents/${agentId}/flow/analysis`)
      expect([elsewhere.status, elsewhere.json._tag]).toEqual([404, "AssistantNotFound"])
    }))
})
