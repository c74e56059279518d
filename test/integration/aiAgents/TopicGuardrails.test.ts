/**
 * Blocked topics by examples and by the agent's model, over HTTP against the
 * real database, with the offline model scripted for the file: asked to
 * classify a message (`TOPIC_CLASSIFIER_PREAMBLE`), it names the topic when
 * the message mentions a rash, answers garbage when it says "garble", and
 * null otherwise; asked anything else, it echoes the user as the default
 * script does. A rule by examples blocks a paraphrase of its examples and
 * lets an ordinary message through; one that breaks its fields is a typed
 * 400 naming the field. A rule by llm blocks when the model names the topic,
 * stores the verdict with the turn (a replayed turn asks nothing again), and
 * on garbage lets the message through with a warning, or blocks it with
 * `failClosed`. The examples are written for this test.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { AiAgentGuardrailCreate } from "../../../src/domain/aiAgents/Guardrail.js"
import { TOPIC_CLASSIFIER_PREAMBLE } from "../../../src/domain/aiAgents/guardrails/LlmTopics.js"
import {
  defaultOfflineScript,
  messageText,
  type OfflineReply,
  OfflineScript,
  type OfflineTurn
} from "../../../src/providers/llm/OfflineScript.js"
import { signUp } from "../../support/Accounts.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

let count = 0
const slugOf = (label: string) => `${label}-${process.pid}-${++count}`
const noHeaders = { headers: {} } as const

/** The messages the scripted model was asked to classify, in order. */
const classified: Array<string> = []

const script = (turn: OfflineTurn): OfflineReply => {
  const system = turn.prompt.content[0]
  if (system === undefined || !messageText(system).startsWith(TOPIC_CLASSIFIER_PREAMBLE)) {
    return defaultOfflineScript(turn)
  }
  const asked = messageText(turn.prompt.content.at(-1)!)
  const message = asked.slice(asked.indexOf("Message:\n") + "Message:\n".length)
  classified.push(message)
  if (message.includes("garble")) return { text: "Well, it depends on how you look at it." }
  return { text: message.includes("rash") ? `{"topic": "medical advice"}` : `{"topic": null}` }
}

const MEDICAL = {
  name: "medical advice",
  examples: [
    "what dose of ibuprofen can I take for a headache",
    "is it safe to take paracetamol with antibiotics",
    "I have chest pain, what should I do",
    "can you diagnose this rash on my arm",
    "how many sleeping pills is too many",
    "should I stop taking my blood pressure medication",
    "what medicine helps with a fever",
    "is this mole cancer"
  ]
}

/** An agent of a new workspace with the given guardrails, made through the API. */
const agentWith = (rules: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const owner = yield* signUp()
    const client = yield* clientOf(owner)
    const slug = slugOf("topics")
    yield* client.aiAgents.create({
      payload: Schema.decodeUnknownSync(AiAgentCreate)({ slug, name: "Topics", instructions: "Help." })
    })
    for (const rule of rules) {
      yield* client.aiAgentGuardrails.create({
        path: { slug },
        payload: Schema.decodeUnknownSync(AiAgentGuardrailCreate)(rule),
        ...noHeaders
      })
    }
    const say = (message: string, key?: string) =>
      client.aiAgents.playground({
        path: { slug },
        urlParams: { stream: false },
        headers: key === undefined ? {} : { "idempotency-key": key } as never,
        payload: { message }
      })
    return { owner, client, slug, say }
  })

const server = testServer().pipe(Layer.provide(Layer.succeed(OfflineScript, script)))

layer(server, { excludeTestServices: true, timeout: 120_000 })("AI agent blocked topics", (it) => {
  it.effect("by examples: a paraphrase is blocked, an ordinary message answered; bad rules are a 400 naming the field", () =>
    Effect.gen(function*() {
      const { owner, say, slug } = yield* agentWith([{
        name: "no-medical",
        stage: "input",
        rule: { kind: "blocked-topics", detection: "examples", topics: [MEDICAL] },
        action: "block",
        message: "I can't give medical advice."
      }])
      const blocked = yield* say("what pills should I take for my back pain?")
      expect(blocked).toMatchObject({ finishReason: "guardrail", message: { content: "I can't give medical advice." } })
      expect(blocked.guardrailEvents).toEqual([
        expect.objectContaining({ name: "no-medical", kind: "blocked-topics", stage: "input", action: "block" })
      ])
      expect(blocked.guardrailEvents[0]!.detail).toMatch(/^blocked topic "medical advice"/)
      const fine = yield* say("can you track my parcel please")
      expect(fine.finishReason).not.toBe("guardrail")
      expect(fine.message.content).toContain("You said: \"can you track my parcel please\"")
      expect(fine.guardrailEvents).toEqual([])
      // The classifier is the NLU's, not the model's: nothing was asked to classify.
      expect(classified).toEqual([])

      const post = (rule: Record<string, unknown>) =>
        exchange(
          postRaw(
            `/v1/ai-agents/${slug}/guardrails`,
            JSON.stringify({ name: slugOf("bad"), stage: "input", action: "block", rule })
          ).pipe(HttpClientRequest.bearerToken(owner.token))
        )
      const fewExamples = yield* post({
        kind: "blocked-topics",
        detection: "examples",
        topics: [{ name: "x", examples: ["a", "b", "c", "d"] }]
      })
      expect(fewExamples.status).toBe(400)
      expect(JSON.stringify(fewExamples.json)).toContain("examples")
      const phrase = yield* post({ kind: "blocked-topics", detection: "examples", topics: ["medical advice"] })
      expect(phrase.status).toBe(400)
      expect(phrase.json).toMatchObject({ _tag: "AiAgentGuardrailInvalid", problems: [{ field: "rule.topics.0" }] })
      const llmOutput = yield* exchange(
        postRaw(
          `/v1/ai-agents/${slug}/guardrails`,
          JSON.stringify({
            name: "late",
            stage: "output",
            action: "block",
            rule: { kind: "blocked-topics", detection: "llm", topics: ["medical advice"] }
          })
        ).pipe(HttpClientRequest.bearerToken(owner.token))
      )
      expect(llmOutput.status).toBe(400)
      expect(llmOutput.json).toMatchObject({ problems: [{ field: "rule.detection" }] })
    }))

  it.effect("by llm: blocked when the model names the topic; the verdict is stored and never asked again", () =>
    Effect.gen(function*() {
      classified.length = 0
      const { say } = yield* agentWith([{
        name: "llm-medical",
        stage: "input",
        rule: { kind: "blocked-topics", detection: "llm", topics: [MEDICAL, "legal advice"] },
        action: "block"
      }])
      const blocked = yield* say("is this rash on my leg serious?", "llm-1")
      expect(blocked.finishReason).toBe("guardrail")
      expect(blocked.guardrailEvents).toEqual([
        expect.objectContaining({
          name: "llm-medical",
          action: "block",
          detail: "blocked topic \"medical advice\" (by the model)"
        })
      ])
      expect(classified).toEqual([JSON.stringify("is this rash on my leg serious?")])
      // The verdict is stored with the turn; the same key replays it without asking the model.
      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ stop: string | null }>`SELECT request->'input'->'stop'->>'guardrailId' AS stop
        FROM ai_agent_turns WHERE conversation_id = ${blocked.conversationId!}`
      expect(stored).toEqual([{ stop: blocked.guardrailEvents[0]!.guardrailId }])
      const replayed = yield* say("is this rash on my leg serious?", "llm-1")
      expect(replayed.message).toEqual(blocked.message)
      expect(classified).toHaveLength(1)
      const fine = yield* say("where is my order?")
      expect(fine.finishReason).not.toBe("guardrail")
      expect(fine.guardrailEvents).toEqual([])
      expect(classified).toHaveLength(2)
    }))

  it.effect("by llm: a garbled answer lets the message through with a warning, or blocks it with failClosed", () =>
    Effect.gen(function*() {
      const open = yield* agentWith([{
        name: "llm-open",
        stage: "input",
        rule: { kind: "blocked-topics", detection: "llm", topics: ["medical advice"] },
        action: "block"
      }])
      const through = yield* open.say("please garble this")
      expect(through.finishReason).not.toBe("guardrail")
      expect(through.message.content).toContain("please garble this")
      expect(through.guardrailEvents).toEqual([expect.objectContaining({ name: "llm-open", action: "warn" })])
      expect(through.guardrailEvents[0]!.detail).toContain("let through")

      const closed = yield* agentWith([{
        name: "llm-closed",
        stage: "input",
        rule: { kind: "blocked-topics", detection: "llm", topics: ["medical advice"], failClosed: true },
        action: "block"
      }])
      const stopped = yield* closed.say("please garble this")
      expect(stopped.finishReason).toBe("guardrail")
      expect(stopped.guardrailEvents).toEqual([expect.objectContaining({ name: "llm-closed", action: "block" })])
      expect(stopped.guardrailEvents[0]!.detail).toContain("failClosed")
    }))
})
