/**
 * Assistant analytics computed from real conversations: public sessions on
 * deployments, run over HTTP through the runtime, then the report: sessions,
 * user turns, completion, hand-off and fallback rates (hand-off nodes cannot be
 * deployed yet, so that rate is 0 here), outcomes, top intents,
 * drop-off nodes, and the daily series with its empty days, for one
 * deployment or all of them; editors' draft sessions and other Assistants
 * never count; the window; bad parameters; who may read it. Through the
 * typed client, raw only for the queries it would not send.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import { AssistantId } from "../../../src/domain/assistants/Assistant.js"
import type { AssistantAnalyticsParams } from "../../../src/domain/deployments/AssistantAnalytics.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import {
  assistantWithTyped,
  deployedTyped,
  type Page,
  publicClientOf,
  turnPublicTyped
} from "../../support/Deployments.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const at = (x: number) => ({ x, y: 0 })

/** A pizza shop: order (a size), opening hours, or a phone number; anything else is out of scope and asked again. */
const shopFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "hello", type: "message", position: at(100), data: { text: "Order, opening hours, or a human?" } },
    { id: "router", type: "intent-router", position: at(200), data: { intents: ["order", "hours", "human"] } },
    {
      id: "ask_size",
      type: "question",
      position: at(300),
      data: {
        prompt: "Which size?",
        variable: "size",
        maxAttempts: 2,
        validation: {
          kind: "choice",
          options: [{ value: "small", label: "Small" }, { value: "large", label: "Large" }]
        }
      }
    },
    { id: "bye", type: "end", position: at(400), data: { outcome: "ordered" } },
    { id: "gave_up", type: "end", position: at(400), data: { outcome: "gave_up" } },
    { id: "hours_msg", type: "message", position: at(300), data: { text: "Nine to five." } },
    { id: "done", type: "end", position: at(400), data: { outcome: "informed" } },
    { id: "agent", type: "message", position: at(300), data: { text: "Call us on 555 0100." } },
    { id: "called", type: "end", position: at(400), data: { outcome: "phoned" } },
    { id: "sorry", type: "message", position: at(300), data: { text: "Sorry, I did not get that." } },
    { id: "again", type: "jump", position: at(400), data: { target: { kind: "node", nodeId: "router" } } }
  ],
  edges: [
    { id: "e1", source: "start", target: "hello", kind: "next" },
    { id: "e2", source: "hello", target: "router", kind: "next" },
    { id: "e3", source: "router", target: "ask_size", kind: "intent", intent: "order" },
    { id: "e4", source: "router", target: "hours_msg", kind: "intent", intent: "hours" },
    { id: "e5", source: "router", target: "agent", kind: "intent", intent: "human" },
    { id: "e6", source: "router", target: "sorry", kind: "fallback" },
    { id: "e7", source: "ask_size", target: "bye", kind: "answered" },
    { id: "e8", source: "ask_size", target: "gave_up", kind: "fallback" },
    { id: "e9", source: "hours_msg", target: "done", kind: "next" },
    { id: "e10", source: "sorry", target: "again", kind: "next" },
    { id: "e11", source: "agent", target: "called", kind: "next" }
  ]
}

const intents = [
  { name: "order", utterances: ["I want to order a pizza", "order pizza please", "can I get a pizza"] },
  { name: "hours", utterances: ["when are you open", "opening hours", "what time do you close"] },
  { name: "human", utterances: ["talk to a human", "speak to a person", "a real agent please"] }
]

/** The report through the typed client (in `workspaceId` when given); it always sends `days`, 30 unless given. */
const report = (
  caller: TestAccount,
  agentId: AssistantId,
  urlParams: Partial<typeof AssistantAnalyticsParams.Type> = {},
  workspaceId?: string
) =>
  Effect.flatMap(
    clientOf(caller, workspaceId),
    (client) =>
      client.assistantAnalytics.getAnalytics({ path: { agent_id: agentId }, urlParams: { days: 30, ...urlParams } })
  )

/** The report asked with a raw query. */
const reportRaw = (caller: TestAccount, agentId: string, query: string) =>
  exchange(as(HttpClientRequest.get(`/v1/agents/${agentId}/analytics${query}`), caller))

let keys = 0
/** A public conversation through the typed client: a session, then each input as a turn; the session's id. */
const converse = (page: Page, inputs: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const client = yield* publicClientOf(page)
    const opening = yield* client.publicRuntime.startSession({ payload: {} })
    for (const input of inputs) yield* turnPublicTyped(client, opening.sessionId, input, `k${++keys}`)
    return opening.sessionId
  })

const today = () => new Date().toISOString().slice(0, 10)
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("assistant analytics", (it) => {
  it.effect("figures come from the deployed conversations the runtime stored", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, shopFlow, { intents })
      const a = yield* deployedTyped(owner, agentId)
      const b = yield* deployedTyped(owner, agentId)
      const pageA: Page = { token: a.token }
      const pageB: Page = { token: b.token }

      yield* converse(pageA, [{ payload: "order" }, { text: "large" }]) // ordered
      yield* converse(pageA, [{ text: "xyzzy plugh" }, { payload: "hours" }]) // out of scope, then informed
      yield* converse(pageA, [{ payload: "order" }, { text: "medium" }, { text: "tiny" }]) // reprompt, then gave up
      yield* converse(pageA, [{ payload: "human" }]) // phoned
      yield* converse(pageA, [{ payload: "order" }]) // left at ask_size
      yield* converse(pageA, []) // left at the router
      yield* converse(pageB, [{ payload: "hours" }]) // informed, on the other deployment
      // Neither editors' test sessions nor another Assistant's deployments count.
      const client = yield* clientOf(owner)
      const draft = yield* client.runtime.startSession({ payload: { agentId } })
      yield* client.runtime.sendTurn({ path: { id: draft.sessionId }, headers: {}, payload: { payload: "order" } })
      const otherAgent = yield* assistantWithTyped(owner, shopFlow, { intents, name: "Other" })
      yield* converse({ token: (yield* deployedTyped(owner, otherAgent)).token }, [{ payload: "human" }])

      const onA = yield* report(owner, agentId, { days: 7, deploymentId: a.id })
      expect(onA).toMatchObject({
        agentId,
        days: 7,
        from: daysAgo(6),
        to: today(),
        sessions: 6,
        turns: 9,
        completionRate: 0.6667,
        handoffRate: 0,
        fallbackRate: 0.2222,
        outcomes: ["gave_up", "informed", "ordered", "phoned"].map((outcome) => ({ outcome, count: 1 })),
        topIntents: [{ intent: "order", count: 3 }, { intent: "hours", count: 1 }, { intent: "human", count: 1 }],
        dropOffNodes: [{ nodeId: "ask_size", count: 1 }, { nodeId: "router", count: 1 }]
      })
      expect(onA.daily).toHaveLength(7)
      expect(onA.daily.map((day) => day.day)).toEqual(Array.from({ length: 7 }, (_, index) => daysAgo(6 - index)))
      expect(onA.daily[6]).toEqual({
        day: today(),
        sessions: 6,
        turns: 9,
        completed: 4,
        handedOff: 0,
        fallbacks: 2
      })
      for (const day of onA.daily.slice(0, 6)) {
        expect(day).toEqual({ day: day.day, sessions: 0, turns: 0, completed: 0, handedOff: 0, fallbacks: 0 })
      }

      // Raw: a query without days, which the typed client always sends (its schema fills the default).
      const all = (yield* reportRaw(owner, agentId, "")).json
      expect(all).toMatchObject({ days: 30, sessions: 7, turns: 10, completionRate: 0.7143 })
      expect(all.topIntents).toEqual([
        { intent: "order", count: 3 },
        { intent: "hours", count: 2 },
        { intent: "human", count: 1 }
      ])
      expect(all.daily).toHaveLength(30)

      // A session that started before the window is not in it.
      const old = yield* converse(pageA, [{ payload: "order" }, { text: "small" }])
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE runtime_sessions SET created_at = now() - interval '10 days' WHERE id = ${old}`
      expect((yield* report(owner, agentId, { days: 7, deploymentId: a.id })).sessions).toBe(6)
      const month = yield* report(owner, agentId, { days: 30, deploymentId: a.id })
      expect(month.sessions).toBe(7)
      expect(month.daily.find((day) => day.day === daysAgo(10))).toMatchObject({
        sessions: 1,
        turns: 2,
        completed: 1
      })
    }))

  it.effect("an Assistant without conversations reports zeros, and every day", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, shopFlow, { intents })
      const empty = yield* report(owner, agentId, { days: 1 })
      expect(empty).toEqual({
        agentId,
        days: 1,
        from: today(),
        to: today(),
        sessions: 0,
        turns: 0,
        completionRate: 0,
        handoffRate: 0,
        fallbackRate: 0,
        outcomes: [],
        topIntents: [],
        dropOffNodes: [],
        daily: [{ day: today(), sessions: 0, turns: 0, completed: 0, handedOff: 0, fallbacks: 0 }]
      })
      expect((yield* report(owner, agentId, { days: 365 })).daily).toHaveLength(365)
    }))

  it.effect("bad parameters are 400s; unknown Assistants and deployments 404s; viewers read, strangers do not", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, shopFlow, { intents })
      // Raw: queries the typed client refuses to send; the exact status of the decode error.
      for (const query of ["?days=0", "?days=366", "?days=abc", "?days=1.5", "?deploymentId=nope"]) {
        expect((yield* reportRaw(owner, agentId, query)).status, query).toBe(400)
      }
      const missing = yield* failureOf(report(owner, AssistantId.make(Crypto.randomUUID())))
      expect(missing._tag).toBe("AssistantNotFound")
      const otherAgent = yield* assistantWithTyped(owner, shopFlow, { intents, name: "Other" })
      const elsewhere = yield* deployedTyped(owner, otherAgent)
      const wrong = yield* failureOf(report(owner, agentId, { deploymentId: elsewhere.id }))
      expect(wrong._tag).toBe("DeploymentNotFound")

      const viewer = yield* join(owner, "viewer")
      expect((yield* report(viewer, agentId, {}, owner.workspaceId)).agentId).toBe(agentId)
      const stranger = yield* signUp()
      expect((yield* failureOf(report(stranger, agentId)))._tag).toBe("AssistantNotFound")
    }))
})
