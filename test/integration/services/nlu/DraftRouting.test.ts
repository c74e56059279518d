/**
 * Draft conversations over real HTTP and the real database route by the
 * built-in NLU (`NluModels` behind `DraftPrograms`): a paraphrase reaches its
 * intent, an unrelated message the fallback, and an intent added to the
 * draft is recognised once its model is trained (until then the previous
 * model answers).
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AssistantCreate } from "../../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../../src/domain/assistants/Flow.js"
import { IntentCreate } from "../../../../src/domain/assistants/Intent.js"
import { as, post, signUp, type TestAccount } from "../../../support/Accounts.js"
import { exchange } from "../../../support/Http.js"
import { clientOf } from "../../../support/Members.js"
import { testServer } from "../../../support/TestServer.js"

const at = (y: number) => ({ x: 0, y })

const routerFlow = (intents: ReadonlyArray<string>) =>
  Schema.decodeUnknownSync(FlowReplace)({
    nodes: [
      { id: "start", type: "start", position: at(0), data: {} },
      { id: "route", type: "intent-router", position: at(100), data: { intents } },
      ...intents.map((intent, index) => ({
        id: `end_${intent}`,
        type: "end",
        position: at(200 + index * 100),
        data: { outcome: intent }
      })),
      { id: "out", type: "end", position: at(900), data: { outcome: "out-of-scope" } }
    ],
    edges: [
      { id: "e0", source: "start", target: "route", kind: "next" },
      ...intents.map((intent) => ({
        id: `e_${intent}`,
        source: "route",
        target: `end_${intent}`,
        kind: "intent",
        intent
      })),
      { id: "e_out", source: "route", target: "out", kind: "fallback" }
    ]
  })

const say = (owner: TestAccount, agentId: string, text: string) =>
  Effect.gen(function*() {
    const opening = yield* post("/v1/runtime/sessions", { agentId }, owner)
    expect(opening.status).toBe(201)
    const turn = yield* exchange(as(
      HttpClientRequest.post(`/v1/runtime/sessions/${opening.json.sessionId}/turns`).pipe(
        HttpClientRequest.bodyUnsafeJson({ text })
      ),
      owner
    ))
    expect(turn.status).toBe(200)
    return turn.json.debug.nlu as { intent: string | null; confidence: number }
  })

layer(testServer(), { excludeTestServices: true })("draft routing by the built-in NLU", (it) => {
  it.effect(
    "routes paraphrases, turns unrelated messages away, and learns an added intent",
    () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const assistant = yield* client.assistants.create({ payload: AssistantCreate.make({ name: "Shop" }) })
        const path = { agent_id: assistant.id }
        for (
          const [name, utterances] of [
            ["order", ["I want to order a pizza", "order food", "can I get a pizza delivered"]],
            ["refund", ["I want my money back", "refund my order", "give me a refund"]]
          ] as const
        ) {
          yield* client.assistants.createIntent({ path, payload: IntentCreate.make({ name, utterances }) })
        }
        yield* client.flows.replaceFlow({ path, headers: {}, payload: routerFlow(["order", "refund", "greet"]) })

        expect(yield* say(owner, assistant.id, "give me refunds")).toMatchObject({ intent: "refund" })
        expect(yield* say(owner, assistant.id, "pizzas delivered please")).toMatchObject({ intent: "order" })
        const unrelated = yield* say(owner, assistant.id, "what is the weather like on mars tomorrow")
        expect(unrelated.intent).toBeNull()
        expect(unrelated.confidence).toBeLessThan(0.5)

        // The router already names `greet`; once the intent exists and its model is trained, it is recognised.
        yield* client.assistants.createIntent({
          path,
          payload: IntentCreate.make({ name: "greet", utterances: ["hello", "hi there", "good morning"] })
        })
        let greeted: { intent: string | null } = { intent: null }
        for (let attempt = 0; attempt < 50 && greeted.intent !== "greet"; attempt++) {
          if (attempt > 0) yield* Effect.sleep("100 millis")
          greeted = yield* say(owner, assistant.id, "hello there")
        }
        expect(greeted.intent).toBe("greet")
        expect(yield* say(owner, assistant.id, "refund my order")).toMatchObject({ intent: "refund", confidence: 1 })
      }),
    { timeout: 60_000 }
  )
})
