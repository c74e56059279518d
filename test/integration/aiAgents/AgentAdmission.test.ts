/**
 * Agent turns pass the node's turns gate as Assistant turns do: a node that
 * admits one turn at a time (PARLEY_MAX_TURNS_IN_FLIGHT=1) and is running a
 * turn whose model has not answered refuses a second turn at once with 503
 * `Overloaded` and `Retry-After`, in JSON and in a stream; a client that
 * gives up on the running turn does not free the permit while the turn still
 * runs; once the model answers, the node takes turns again, and the
 * refused turn's key works (it was refused before anything was stored). The
 * model is the fake OpenAI server.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Schedule, Schema } from "effect"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { signUp } from "../../support/Accounts.js"
import { answer, type FakeLlmServer } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

class Fake extends Context.Tag("test/AgentAdmissionFake")<Fake, FakeLlmServer>() {}

const Server = Layer.unwrapScoped(
  Effect.map(makeFakeOpenAi, (fake) =>
    Layer.merge(
      testServer({
        PARLEY_MAX_TURNS_IN_FLIGHT: "1",
        PARLEY_LLM_PROVIDER: "openai-compatible",
        PARLEY_LLM_MODEL: "gate-model",
        PARLEY_LLM_BASE_URL: `${fake.origin}/v1`,
        PARLEY_LLM_API_KEY: "sk-gate",
        PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32"
      }),
      Layer.succeed(Fake, fake)
    ))
)

layer(Server, { excludeTestServices: true, timeout: 60_000 })("agent turns and the turns gate", (it) => {
  it.effect(
    "a full gate refuses at once; a client that leaves does not free its turn's permit",
    () =>
      Effect.gen(function*() {
        const fake = yield* Fake
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const slug = `gate-${process.pid}`
        yield* client.aiAgents.create({
          payload: Schema.decodeUnknownSync(AiAgentCreate)({ slug, name: "Gate", instructions: "Answer." })
        })
        // The first turn's model takes 3 s; later ones answer at once.
        let asked = 0
        fake.respond(() =>
          ++asked === 1 ? answer({ text: "Slowly.", delayMs: 3000 }) : answer({ text: "Here you are." })
        )
        const turn = (message: string, key: string, stream = false) =>
          exchange(
            postRaw(`/v1/ai-agents/${slug}/playground${stream ? "?stream=true" : ""}`, JSON.stringify({ message }))
              .pipe(
                HttpClientRequest.bearerToken(owner.token),
                HttpClientRequest.setHeader("idempotency-key", key)
              )
          )

        // The first turn waits for the model; its client gives up after a moment.
        const first = yield* Effect.fork(turn("first", "gate-1").pipe(Effect.timeout("1 second"), Effect.either))
        yield* Effect.promise(async () => {
          while (asked === 0) await new Promise((resolve) => setTimeout(resolve, 20))
        })
        yield* Fiber.join(first)

        // The turn still runs (its model has not answered): the gate stays full.
        const refused = yield* turn("second", "gate-2")
        expect(refused.status).toBe(503)
        expect(refused.json._tag).toBe("Overloaded")
        expect(refused.headers["retry-after"]).toBe("1")
        const refusedStream = yield* turn("second", "gate-2", true)
        expect(refusedStream.status).toBe(503)
        expect(refusedStream.json._tag).toBe("Overloaded")

        // Once the first turn has its answer, the gate takes turns again: the refused key is admitted.
        const admitted = yield* turn("second", "gate-2").pipe(
          Effect.filterOrFail((res) => res.status !== 503, () => "still refused"),
          Effect.retry(Schedule.spaced("200 millis")),
          Effect.timeout("20 seconds")
        )
        expect(admitted.status).toBe(200)
        expect(admitted.json.message.content).toBe("Here you are.")
      }),
    60_000
  )
})
