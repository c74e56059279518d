/**
 * A fake Anthropic API on loopback speaking the real wire protocol:
 * `POST /v1/messages` answers a message (text and `tool_use` blocks, usage),
 * or with `stream: true` the event stream `message_start`,
 * `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta`) / `content_block_stop`, `ping`, `message_delta` (stop
 * reason, output usage) and `message_stop`. Errors in Anthropic's shape:
 * `unauthorized`, `modelNotFound`, `rateLimited` (429 with Retry-After),
 * `overloaded` (529).
 */
import type { Effect, Scope } from "effect"
import {
  type FakeAnswer,
  type FakeLlmServer,
  type FakeRequest,
  makeFakeLlmServer,
  status,
  words
} from "./FakeLlmServer.js"

const modelOf = (request: FakeRequest, answer: FakeAnswer) => answer.model ?? `${request.body?.model}-20260101`
const usageOf = (answer: FakeAnswer) => ({
  input_tokens: answer.usage?.input ?? 12,
  output_tokens: answer.usage?.output ?? 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0
})
const toolBlocks = (answer: FakeAnswer) =>
  (answer.toolCalls ?? []).map((call, index) => ({
    type: "tool_use",
    id: call.id ?? `toolu_fake${index + 1}`,
    name: call.name,
    input: call.input
  }))

const error = (type: string, message: string) => ({ type: "error", error: { type, message } })

export const unauthorized = status(401, error("authentication_error", "invalid x-api-key"))
export const modelNotFound = (model: string) => status(404, error("not_found_error", `model: ${model}`))
export const rateLimited = (retryAfterSeconds: number) =>
  status(429, error("rate_limit_error", "Number of requests has exceeded your rate limit."), {
    "retry-after": String(retryAfterSeconds)
  })
export const overloaded = status(529, error("overloaded_error", "Overloaded"))

/** Start the fake for the scope; its base URL is its origin (the client adds `/v1/messages`). */
export const makeFakeAnthropic: Effect.Effect<FakeLlmServer, never, Scope.Scope> = makeFakeLlmServer({
  streams: (request) => request.body?.stream === true,
  routes: (request) =>
    // The SDKs send `?beta=true` with the beta Messages API.
    request.method === "POST" && new URL(request.path, "http://fake").pathname === "/v1/messages"
      ? undefined
      : status(404, error("not_found_error", `Not found: ${request.path}`)),
  json: (request, answer) => {
    const tools = toolBlocks(answer)
    return {
      id: "msg_fake1",
      type: "message",
      role: "assistant",
      model: modelOf(request, answer),
      content: [...(answer.text === undefined ? [] : [{ type: "text", text: answer.text }]), ...tools],
      stop_reason: tools.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: usageOf(answer)
    }
  },
  events: (request, answer) => {
    const usage = usageOf(answer)
    const event = (type: string, data: Record<string, unknown>) => [type, JSON.stringify({ type, ...data })] as const
    const events: Array<readonly [string, string]> = [
      event("message_start", {
        message: {
          id: "msg_fake1",
          type: "message",
          role: "assistant",
          model: modelOf(request, answer),
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 }
        }
      })
    ]
    let index = 0
    if (answer.text !== undefined) {
      events.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }))
      events.push(event("ping", {}))
      for (const word of words(answer.text)) {
        events.push(event("content_block_delta", { index, delta: { type: "text_delta", text: word } }))
      }
      events.push(event("content_block_stop", { index }))
      index++
    }
    for (const block of toolBlocks(answer)) {
      events.push(event("content_block_start", { index, content_block: { ...block, input: {} } }))
      const json = JSON.stringify(block.input)
      const half = Math.ceil(json.length / 2)
      for (const piece of [json.slice(0, half), json.slice(half)]) {
        events.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }))
      }
      events.push(event("content_block_stop", { index }))
      index++
    }
    events.push(event("message_delta", {
      delta: { stop_reason: (answer.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: usage.output_tokens }
    }))
    events.push(event("message_stop", {}))
    return events
  }
})
