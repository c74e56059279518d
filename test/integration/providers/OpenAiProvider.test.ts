/**
 * The openai and openai-compatible providers against a fake OpenAI API on
 * loopback speaking chat completions (plain, SSE, tool calls) and embeddings.
 */
import { Tool, Toolkit } from "@effect/ai"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Schema, Stream } from "effect"
import { fromAiError } from "../../../src/providers/llm/LlmCallFailure.js"
import { LlmClients } from "../../../src/providers/llm/LlmClients.js"
import { answer, hang } from "../../support/FakeLlmServer.js"
import { fakeEmbedding, makeFakeOpenAi, modelNotFound, rateLimited, unauthorized } from "../../support/FakeOpenAi.js"
import { llmClientsWith, target } from "../../support/LlmTesting.js"

const KEY = "sk-test-0123456789abcdef"

const Weather = Tool.make("weather", {
  description: "The weather in a city",
  parameters: { city: Schema.String },
  success: Schema.Struct({ forecast: Schema.String })
})
const Tools = Toolkit.make(Weather)
const ToolsLive = Tools.toLayer({ weather: ({ city }) => Effect.succeed({ forecast: `sunny in ${city}` }) })

const setup = (provider: "openai" | "openai-compatible", requestTimeoutSeconds = 5) =>
  Effect.gen(function*() {
    const fake = yield* makeFakeOpenAi
    const clients = yield* LlmClients
    const primary = target({ provider, model: "gpt-test", baseUrl: `${fake.origin}/v1`, requestTimeoutSeconds }, KEY)
    return { fake, clients, primary, model: yield* clients.languageModel(primary) }
  })

describe("the OpenAI provider against its fake", () => {
  it.scopedLive("a plain answer: text, the model that answered, usage, and the request as OpenAI expects it", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup("openai")
      fake.respond(() => answer({ text: "Bonjour!", usage: { input: 21, output: 4 } }))
      const response = yield* model.generateText({
        prompt: [{ role: "system", content: "Be brief" }, { role: "user", content: "Say hello in French" }]
      })
      expect(response.text).toBe("Bonjour!")
      expect([response.usage.inputTokens, response.usage.outputTokens]).toEqual([21, 4])
      expect(response.finishReason).toBe("stop")
      const [request] = fake.requests
      expect(request!.path).toBe("/v1/chat/completions")
      expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(request!.body).toMatchObject({
        model: "gpt-test",
        temperature: 0.3,
        max_completion_tokens: 1024,
        messages: [{ role: "system", content: "Be brief" }, { role: "user", content: "Say hello in French" }]
      })
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("openai-compatible sends max_tokens (what Ollama, vLLM and llama.cpp read); roundTrip reports the dated model", () =>
    Effect.gen(function*() {
      const { clients, fake, primary } = yield* setup("openai-compatible")
      const trip = yield* clients.roundTrip({ ...primary, prompt: "ping" })
      expect(trip).toMatchObject({
        reportedModel: "gpt-test-2026-01-01",
        reply: "Hello from the fake.",
        usage: { inputTokens: 12, outputTokens: 5 }
      })
      expect(trip.latencyMs).toBeGreaterThan(0)
      expect(fake.requests[0]!.body).toMatchObject({ max_tokens: 1024 })
      expect(fake.requests[0]!.body.max_completion_tokens).toBeUndefined()
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a streamed answer arrives as deltas, in order, with usage from the last chunk", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup("openai")
      fake.respond(() => answer({ text: "one two three four", usage: { input: 9, output: 4 } }))
      const parts = Chunk.toArray(yield* Stream.runCollect(model.streamText({ prompt: "count" })))
      expect(parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : [])).toEqual([
        "one ",
        "two ",
        "three ",
        "four"
      ])
      const finish = parts.find((part) => part.type === "finish")
      expect([finish?.reason, finish?.usage.inputTokens, finish?.usage.outputTokens]).toEqual(["stop", 9, 4])
      expect(fake.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a tool call (plain and streamed): the tool is offered with its JSON schema, called and its result returned", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup("openai")
      const tools = yield* Tools
      fake.respond(() => answer({ toolCalls: [{ id: "call_w1", name: "weather", input: { city: "Lyon" } }] }))
      const plain = yield* model.generateText({ prompt: "weather in Lyon?", toolkit: tools })
      expect(plain.toolCalls.map((call) => [call.id, call.name, call.params])).toEqual([["call_w1", "weather", {
        city: "Lyon"
      }]])
      expect(plain.toolResults.map((result) => result.result)).toEqual([{ forecast: "sunny in Lyon" }])
      expect(plain.finishReason).toBe("tool-calls")
      expect(fake.requests[0]!.body.tools).toEqual([{
        type: "function",
        function: {
          name: "weather",
          description: "The weather in a city",
          parameters: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false
          }
        }
      }])
      const streamed = Chunk.toArray(
        yield* Stream.runCollect(model.streamText({ prompt: "weather in Lyon?", toolkit: tools }))
      )
      const call = streamed.find((part) => part.type === "tool-call")
      const result = streamed.find((part) => part.type === "tool-result")
      expect([call?.name, call?.params, result?.result]).toEqual(["weather", { city: "Lyon" }, {
        forecast: "sunny in Lyon"
      }])
    }).pipe(Effect.provide([llmClientsWith(), ToolsLive])))

  it.scopedLive("a 429 with Retry-After is a typed rate-limited failure, and the provider is not called again before it", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup("openai")
      fake.respond(() => rateLimited(30))
      const error = yield* Effect.flip(model.generateText({ prompt: "hi" }))
      const failure = fromAiError(error, [KEY])
      expect([failure.kind, failure.httpStatus, failure.retryAfterMs]).toEqual(["rate-limited", 429, 30_000])
      fake.respond(() => answer({ text: "too early" }))
      const again = fromAiError(yield* Effect.flip(model.generateText({ prompt: "hi" })), [KEY])
      expect(again.kind).toBe("rate-limited")
      expect(again.message).toMatch(/asked not to be called/)
      expect(fake.requests).toHaveLength(1)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a provider that never answers is a typed time-out after the connection's time-out", () =>
    Effect.gen(function*() {
      const { clients, fake, primary } = yield* setup("openai", 1)
      fake.respond(() => hang)
      const started = Date.now()
      const failure = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect(failure.kind).toBe("timeout")
      expect(Date.now() - started).toBeGreaterThanOrEqual(950)
      expect(Date.now() - started).toBeLessThan(3000)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a stream that stalls after its first events fails as a time-out after the connection's time-out", () =>
    Effect.gen(function*() {
      const { fake, model } = yield* setup("openai", 1)
      fake.respond(() => answer({ text: "one two three", stallAfterEvents: 2 }))
      const seen: Array<string> = []
      const error = yield* model.streamText({ prompt: "count" }).pipe(
        Stream.runForEach((part) => Effect.sync(() => part.type === "text-delta" && seen.push(part.delta))),
        Effect.flip
      )
      expect(seen).toEqual(["one "])
      const failure = fromAiError(error, [KEY])
      expect(failure.kind).toBe("timeout")
      expect(failure.message).toMatch(/sent nothing for 1 s$/)
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("a refused key and an unknown model are typed, and the key never appears in the message", () =>
    Effect.gen(function*() {
      const { clients, fake, primary } = yield* setup("openai")
      fake.respond(() => unauthorized)
      const refused = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect([refused.kind, refused.httpStatus]).toEqual(["authentication", 401])
      fake.respond((request) => modelNotFound(request.body.model))
      const unknown = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect([unknown.kind, unknown.httpStatus]).toEqual(["model-not-found", 404])
      expect(unknown.message).toContain("gpt-test")
      fake.respond(() => ({
        _tag: "Status",
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}` } }
      }))
      const echoed = yield* Effect.flip(clients.roundTrip({ ...primary, prompt: "hi" }))
      expect(echoed.message).not.toContain(KEY)
      expect(echoed.message).not.toContain("0123456789abcdef")
    }).pipe(Effect.provide(llmClientsWith())))

  it.scopedLive("embeddings go to /embeddings and come back in order", () =>
    Effect.gen(function*() {
      const fake = yield* makeFakeOpenAi
      const clients = yield* LlmClients
      const embeddings = yield* clients.embeddings(
        target({ provider: "openai-compatible", model: "embed-test", baseUrl: `${fake.origin}/v1` }, KEY)
      )
      const vectors = yield* Effect.all([embeddings.embed("alpha"), embeddings.embed("beta")], { concurrency: 2 })
      expect(vectors).toEqual([fakeEmbedding("alpha"), fakeEmbedding("beta")])
      expect(fake.requests.every((request) => request.path === "/v1/embeddings")).toBe(true)
    }).pipe(Effect.provide(llmClientsWith())))
})
