/**
 * A fake OpenAI API on loopback speaking the real wire protocol:
 * `POST /v1/chat/completions` (a chat completion, or with `stream: true`
 * server-sent `chat.completion.chunk` events, tool-call deltas by index, a
 * usage chunk when `stream_options.include_usage`, then `data: [DONE]`) and
 * `POST /v1/embeddings` (deterministic 8-dimension vectors). Errors in
 * OpenAI's shape: `unauthorized`, `modelNotFound`, `rateLimited` (429 with
 * Retry-After), `serverError`.
 */
import type { Effect, Scope } from "effect"
import * as Crypto from "node:crypto"
import {
  type FakeAnswer,
  type FakeLlmServer,
  type FakeRequest,
  makeFakeLlmServer,
  status,
  words
} from "./FakeLlmServer.js"

const modelOf = (request: FakeRequest, answer: FakeAnswer) => answer.model ?? `${request.body?.model}-2026-01-01`
const usageOf = (answer: FakeAnswer) => {
  const input = answer.usage?.input ?? 12
  const output = answer.usage?.output ?? 5
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output }
}
const toolCallsOf = (answer: FakeAnswer) =>
  (answer.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.input) }
  }))

/** A deterministic embedding of a text: 8 numbers from its hash. */
export const fakeEmbedding = (text: string): Array<number> =>
  [...Crypto.createHash("sha256").update(text).digest().subarray(0, 8)].map((byte) => byte / 255)

const error = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } })

export const unauthorized = status(
  401,
  error("Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
)
export const modelNotFound = (model: string) =>
  status(
    404,
    error(
      `The model \`${model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      "model_not_found"
    )
  )
export const rateLimited = (retryAfterSeconds: number) =>
  status(429, error("Rate limit reached for requests.", "requests", "rate_limit_exceeded"), {
    "retry-after": String(retryAfterSeconds)
  })
export const serverError = status(
  500,
  error("The server had an error while processing your request.", "server_error", null)
)

/** Start the fake for the scope; its base URL is `${origin}/v1`. */
export const makeFakeOpenAi: Effect.Effect<FakeLlmServer, never, Scope.Scope> = makeFakeLlmServer({
  streams: (request) => request.body?.stream === true,
  routes: (request) => {
    if (request.method === "POST" && request.path === "/v1/embeddings") {
      const input: Array<string> = Array.isArray(request.body?.input) ? request.body.input : [request.body?.input]
      return status(200, {
        object: "list",
        data: input.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(String(text)) })),
        model: request.body?.model,
        usage: { prompt_tokens: input.join(" ").length, total_tokens: input.join(" ").length }
      })
    }
    if (request.method === "POST" && request.path === "/v1/chat/completions") return undefined
    return status(404, error(`Invalid URL (${request.method} ${request.path})`, "invalid_request_error", null))
  },
  json: (request, answer) => {
    const calls = toolCallsOf(answer)
    return {
      id: "chatcmpl-fake1",
      object: "chat.completion",
      created: 1764115200,
      model: modelOf(request, answer),
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: answer.text ?? null,
          refusal: null,
          ...(calls.length > 0 ? { tool_calls: calls } : {})
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop"
      }],
      usage: usageOf(answer),
      system_fingerprint: "fp_fake"
    }
  },
  events: (request, answer) => {
    const model = modelOf(request, answer)
    const chunk = (delta: unknown, finish: string | null = null) =>
      [
        null,
        JSON.stringify({
          id: "chatcmpl-fake1",
          object: "chat.completion.chunk",
          created: 1764115200,
          model,
          system_fingerprint: "fp_fake",
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }]
        })
      ] as const
    const calls = toolCallsOf(answer)
    const events: Array<readonly [string | null, string]> = [chunk({ role: "assistant", content: "", refusal: null })]
    for (const word of words(answer.text ?? "")) events.push(chunk({ content: word }))
    calls.forEach((call, index) => {
      events.push(chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }]
      }))
      const args = call.function.arguments
      const half = Math.ceil(args.length / 2)
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }))
      }
    })
    events.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"))
    if (request.body?.stream_options?.include_usage === true) {
      events.push([
        null,
        JSON.stringify({
          id: "chatcmpl-fake1",
          object: "chat.completion.chunk",
          created: 1764115200,
          model,
          choices: [],
          usage: usageOf(answer)
        })
      ])
    }
    events.push([null, "[DONE]"])
    return events
  }
})
