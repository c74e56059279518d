/**
 * `GET /flow/analysis` through the typed client, on the real server and
 * database: the findings of the draft as it stands (errors first, counts,
 * deployable), the NLU report, the analysis following each edit and repair,
 * viewers reading it, and other workspaces seeing a 404.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AssistantCreate, type AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { FlowNodeId } from "../../../src/domain/assistants/FlowIds.js"
import { IntentCreate } from "../../../src/domain/assistants/Intent.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const at = (x: number, y: number) => ({ x, y })

const newAssistant = (account: TestAccount) =>
  Effect.flatMap(
    clientOf(account),
    (client) =>
      Effect.map(client.assistants.create({ payload: AssistantCreate.make({ name: "Analysed" }) }), (a) => a.id)
  )

const addIntent = (account: TestAccount, agentId: AssistantId, name: string, utterances: ReadonlyArray<string>) =>
  Effect.flatMap(clientOf(account), (client) =>
    client.assistants.createIntent({
      path: { agent_id: agentId },
      payload: Schema.decodeUnknownSync(IntentCreate)({ name, utterances })
    }))

const analysisOf = (account: TestAccount, agentId: AssistantId, workspaceId?: string) =>
  Effect.flatMap(clientOf(account, workspaceId), (client) => client.flows.getAnalysis({ path: { agent_id: agentId } }))

const replaceFlow = (account: TestAccount, agentId: AssistantId, flow: unknown) =>
  Effect.flatMap(clientOf(account), (client) =>
    client.flows.replaceFlow({
      path: { agent_id: agentId },
      headers: {},
      payload: Schema.decodeUnknownSync(FlowReplace)(flow)
    }))

const repairNode = (account: TestAccount, agentId: AssistantId, nodeId: string) =>
  Effect.flatMap(clientOf(account), (client) =>
    client.flows.repairNode({
      path: { agent_id: agentId },
      headers: {},
      payload: { nodeId: FlowNodeId.make(nodeId) }
    }))

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

const codes = (analysis: {
  readonly findings: ReadonlyArray<{ code: string; severity: string; nodeIds: ReadonlyArray<string> }>
}) => analysis.findings.map((finding) => [finding.severity, finding.code, finding.nodeIds])

layer(testServer(), { excludeTestServices: true })("flow analysis", (it) => {
  it.effect("answers every finding of the draft, errors first, with counts and the NLU report", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      yield* addIntent(owner, agentId, "refund", ["I want a refund", "money back please", "return my order"])
      yield* addIntent(owner, agentId, "greet", ["hello", "hi there", "good morning"])
      const written = yield* replaceFlow(owner, agentId, messy)
      expect(written.revision).toBe(4)

      const analysis = yield* analysisOf(owner, agentId)
      expect(analysis).toMatchObject({
        agentId,
        revision: 4,
        deployable: false,
        errorCount: 2,
        warningCount: 3
      })
      expect(codes(analysis)).toEqual([
        ["error", "undefined-intent", ["route"]],
        ["error", "node-unavailable", ["human"]],
        ["warning", "unreachable-node", ["orphan"]],
        ["warning", "question-without-fallback", ["ask"]],
        ["warning", "unused-intent", []]
      ])
      expect(analysis.findings[0]).toMatchObject({ intents: ["refnd"], repairable: true })
      expect(analysis.findings[0]!.message).toContain("did you mean refund?")
      expect(analysis.analysedAt.epochMillis).toBeGreaterThan(0)
      expect(["computing", "insufficient-data", "ready", "stale"]).toContain(analysis.nlu.status)
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
      let nlu = (yield* analysisOf(owner, agentId)).nlu
      for (let tries = 0; nlu.status !== "ready" && tries < 200; tries++) {
        yield* Effect.sleep("50 millis")
        nlu = (yield* analysisOf(owner, agentId)).nlu
      }
      if (nlu.status !== "ready") throw new Error(`the NLU report is ${nlu.status}`)
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
      yield* addIntent(owner, agentId, "refund", ["I want a refund", "money back please", "return my order"])
      yield* addIntent(owner, agentId, "greet", ["hello", "hi there", "good morning"])
      yield* replaceFlow(owner, agentId, {
        nodes: messy.nodes.filter((node) => node.id !== "human" && node.id !== "orphan"),
        edges: messy.edges.filter((edge) => edge.target !== "human" && edge.source !== "orphan")
      })
      const before = yield* analysisOf(owner, agentId)
      expect(codes(before)).toEqual([
        ["error", "dead-end", ["route"]],
        ["error", "undefined-intent", ["route"]],
        ["warning", "question-without-fallback", ["ask"]],
        ["warning", "unused-intent", []]
      ])
      yield* repairNode(owner, agentId, "route")
      yield* repairNode(owner, agentId, "ask")
      const after = yield* analysisOf(owner, agentId)
      expect(after).toMatchObject({ revision: 6, deployable: true, errorCount: 0, warningCount: 0, findings: [] })
    }))

  it.effect("an empty draft has no start: not deployable", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const analysis = yield* analysisOf(owner, agentId)
      expect(codes(analysis)).toEqual([["error", "missing-start", []]])
      expect(analysis.nlu.status).toBe("insufficient-data")
    }))

  it.effect("viewers read it; another workspace gets a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* newAssistant(owner)
      const viewer = yield* join(owner, "viewer")
      const read = yield* analysisOf(viewer, agentId, owner.workspaceId)
      expect(read.agentId).toBe(agentId)
      const stranger = yield* signUp()
      expect((yield* failureOf(analysisOf(stranger, agentId)))._tag).toBe("AssistantNotFound")
    }))
})
