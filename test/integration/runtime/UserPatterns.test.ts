/**
 * Patterns authors write, through the real server: a deployed Assistant whose
 * question pattern and condition regex were catastrophic for a backtracking
 * engine (minutes of a blocked event loop on a few hundred characters)
 * answers the longest messages a visitor may send at once, while liveness
 * keeps answering; a pattern Parley cannot run in linear time stops the
 * deployment (an analysis error with its node id) and an intent write (a
 * 400 naming the field). Through the typed client; raw for the liveness
 * probe and the intent bodies the typed client would refuse to send.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Ref, Schema } from "effect"
import { IntentCreate } from "../../../src/domain/assistants/Intent.js"
import { as, post, signUp } from "../../support/Accounts.js"
import {
  assistantWithTyped,
  deployedTyped,
  deployTyped,
  publicClientOf,
  turnPublicTyped
} from "../../support/Deployments.js"
import { exchange } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const at = (x: number) => ({ x, y: 0 })

// `(.*a){10}` passed the old shape guard (its repeat is bounded by ten) and
// backtracks in about n^10 steps on a text of a's that does not match.
const HOSTILE = "(.*a){10}"

/** A code question with a hostile pattern, then a free text checked by a hostile JSONata regex. */
const hostileFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    {
      id: "ask_code",
      type: "question",
      position: at(100),
      data: {
        prompt: "Your code?",
        variable: "code",
        validation: { kind: "regex", pattern: HOSTILE },
        maxAttempts: 5,
        reprompt: "Not a code."
      }
    },
    {
      id: "ask_text",
      type: "question",
      position: at(200),
      data: { prompt: "Anything else?", variable: "text", validation: { kind: "text" } }
    },
    {
      id: "check",
      type: "condition",
      position: at(300),
      data: { cases: [{ key: "hostile", expression: `$contains(vars.text, /${HOSTILE}y/)` }] }
    },
    { id: "yes", type: "end", position: at(400), data: { message: "Matched." } },
    { id: "no", type: "end", position: at(400), data: { message: "Not matched." } }
  ],
  edges: [
    { id: "e1", source: "start", target: "ask_code", kind: "next" },
    { id: "e2", source: "ask_code", target: "ask_text", kind: "answered" },
    { id: "e3", source: "ask_code", target: "no", kind: "fallback" },
    { id: "e4", source: "ask_text", target: "check", kind: "answered" },
    { id: "e5", source: "check", target: "yes", kind: "case", case: "hostile" },
    { id: "e6", source: "check", target: "no", kind: "fallback" }
  ]
}

/** The longest message a turn takes: 4,000 characters. */
const LONGEST = 4_000

layer(testServer(), { excludeTestServices: true })("user patterns", (it) => {
  it.effect(
    "formerly catastrophic patterns answer the longest messages at once, and liveness never waits",
    () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const agentId = yield* assistantWithTyped(owner, hostileFlow)
        const page = yield* publicClientOf(yield* deployedTyped(owner, agentId))

        // Liveness, asked every 50 ms while the turns run: the slowest answer is kept. Raw, as an
        // orchestrator's probe asks it (nothing but the status is read).
        const slowest = yield* Ref.make(0)
        const probes = yield* Ref.make(0)
        const liveness = yield* Effect.fork(
          Effect.forever(Effect.gen(function*() {
            const started = Date.now()
            const live = yield* exchange(HttpClientRequest.get("/health/live"))
            expect(live.status).toBe(200)
            yield* Ref.update(slowest, (ms) => Math.max(ms, Date.now() - started))
            yield* Ref.update(probes, (n) => n + 1)
            yield* Effect.sleep(Duration.millis(50))
          }))
        )

        const sessionId = (yield* page.publicRuntime.startSession({ payload: {} })).sessionId
        const turn = (text: string, key: string) =>
          Effect.gen(function*() {
            const started = Date.now()
            const answer = yield* turnPublicTyped(page, sessionId, { text }, key)
            return { reply: answer, millis: Date.now() - started }
          })

        // Hundreds of a's that do not match: minutes for a backtracking engine.
        const short = yield* turn(`${"a".repeat(400)}b`, "short")
        expect(short.reply.messages).toMatchObject([{ type: "text", text: "Not a code.", nodeId: "ask_code" }])
        const long = yield* turn(`${"a".repeat(LONGEST - 1)}b`, "long")
        expect(long.reply.messages).toMatchObject([{ type: "text", text: "Not a code.", nodeId: "ask_code" }])
        // The same pattern matches what it should, whole.
        const valid = yield* turn("xaaaaaaaaaa", "valid")
        expect(valid.reply.messages).toMatchObject([{ type: "text", text: "Anything else?", nodeId: "ask_text" }])
        // The longest message through the JSONata regex: no match, so the fallback ends it.
        const text = yield* turn(`${"a".repeat(LONGEST - 1)}!`, "text")
        expect(text.reply.messages).toMatchObject([{ type: "end", text: "Not matched.", nodeId: "no" }])

        for (const { millis } of [short, long, valid, text]) expect(millis).toBeLessThan(5_000)
        yield* Fiber.interrupt(liveness)
        expect(yield* Ref.get(probes)).toBeGreaterThan(0)
        expect(yield* Ref.get(slowest)).toBeLessThan(2_000)
      }),
    { timeout: 60_000 }
  )

  it.effect("a pattern Parley cannot run in linear time stops the deployment, naming its node", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const lookahead = structuredClone(hostileFlow)
      lookahead.nodes[1]!.data.validation = { kind: "regex", pattern: "\\d+(?=€)" }
      const agentId = yield* assistantWithTyped(owner, lookahead)
      const refused = yield* failureOf(deployTyped(owner, agentId))
      expect(refused._tag).toBe("DeploymentRefused")
      expect(refused._tag === "DeploymentRefused" ? refused.findings : []).toContainEqual(expect.objectContaining({
        code: "invalid-pattern",
        severity: "error",
        nodeIds: ["ask_code"],
        message: "Question ask_code's pattern cannot be used: it uses a lookahead ((?=...)), " +
          "a feature Parley cannot run in linear time"
      }))
    }))

  it.effect("an intent whose slot pattern Parley cannot run is a 400 naming the field; a runnable one is stored", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWithTyped(owner, hostileFlow)
      const slot = (pattern: string) => ({ name: "ref", entity: { kind: "regex", pattern } })
      // Raw: slot patterns the typed client's schema refuses to send; the decode error's status and issues.
      const refused = yield* post(`/v1/agents/${agentId}/intents`, {
        name: "track",
        utterances: ["track my order"],
        slots: [slot("[A-Z]{2}"), slot("(\\w)\\1")]
      }, owner)
      expect(refused.status).toBe(400)
      expect(refused.json._tag).toBe("HttpApiDecodeError")
      expect(refused.json.issues).toContainEqual(expect.objectContaining({
        path: ["slots", 1, "entity", "pattern"],
        message: "The pattern of the slot ref cannot be used: it uses a backreference (\\1), " +
          "a feature Parley cannot run in linear time"
      }))

      // What was catastrophic before is a plain pattern now.
      const created = yield* (yield* clientOf(owner)).assistants.createIntent({
        path: { agent_id: agentId },
        payload: Schema.decodeUnknownSync(IntentCreate)({
          name: "track",
          utterances: ["track my order"],
          slots: [slot("(a+)+$")]
        })
      })
      expect(created.slots).toMatchObject([slot("(a+)+$")])
      const patched = yield* exchange(as(
        HttpClientRequest.patch(`/v1/agents/${agentId}/intents/${created.id}`).pipe(
          HttpClientRequest.bodyUnsafeJson({ slots: [slot("(?<=#)\\d+")] })
        ),
        owner
      ))
      expect(patched.status).toBe(400)
      expect(patched.json.issues).toContainEqual(expect.objectContaining({ path: ["slots", 0, "entity", "pattern"] }))
    }))
})
