/**
 * One test call of an HTTP tool, answered as both tool tests answer it (a
 * workspace tool's and an AI agent tool's): any answer of the upstream is a
 * result (`ok: false` for a status other than 2xx or a body over
 * `maxResponseBytes`), no answer at all is `UpstreamFailed` (naming the cause)
 * and a time-out is `Timeout`. Bad input and a missing secret fail as the call
 * failed. Nothing is stored.
 */
import { Effect } from "effect"
import { Timeout, UpstreamFailed } from "../../domain/HttpErrors.js"
import type { JsonValue } from "../../domain/Json.js"
import type { HttpToolDefinition } from "../../domain/workspace/HttpToolDefinition.js"
import {
  type ResolvedToolRequest,
  TOOL_TEST_BODY_PREVIEW,
  type ToolTestFailure,
  type ToolTestResponse
} from "../../domain/workspace/ToolCallResult.js"
import type { ToolCaller, ToolCalls } from "./ToolCalls.js"

/** What a test call answers, whatever the tool's kind. */
export interface ToolTestAnswer {
  readonly ok: boolean
  readonly latencyMs: number
  readonly request: ResolvedToolRequest
  readonly response: ToolTestResponse
  readonly output: JsonValue | null
  readonly error: ToolTestFailure | null
}

const preview = (
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
  sizeBytes: number
): ToolTestResponse => ({
  status,
  headers,
  contentType: headers["content-type"]?.slice(0, 200) ?? null,
  sizeBytes,
  body: body.slice(0, TOOL_TEST_BODY_PREVIEW),
  truncated: body.length > TOOL_TEST_BODY_PREVIEW
})

/** What a model would receive: the parsed JSON of a JSON answer, else its text. */
const outputOf = (body: string, contentType: string | null): JsonValue => {
  if (contentType?.includes("json")) {
    try {
      return JSON.parse(body) as JsonValue
    } catch {
      return body
    }
  }
  return body
}

/** Call `definition` once with `input` for `caller`; `name` names the tool in an `UpstreamFailed`. */
export const testCall = (
  calls: ToolCalls,
  caller: ToolCaller,
  name: string,
  definition: HttpToolDefinition,
  input: JsonValue
) =>
  Effect.gen(function*() {
    const upstream = (message: string) => new UpstreamFailed({ provider: name, message })
    const started = performance.now()
    const answer = yield* calls.call(caller, definition, input).pipe(
      Effect.map((result) => ({ _tag: "Answered" as const, result })),
      Effect.catchTags({
        OutboundResponseTooLarge: (failure) => Effect.succeed({ _tag: "TooLarge" as const, failure }),
        OutboundTimedOut: (failure) =>
          new Timeout({
            timeoutMillis: failure.timeoutMs,
            message: `The tool's request timed out: ${failure.message}`
          }),
        OutboundRefused: (failure) => upstream(`Refused by the address rule: ${failure.message}`),
        OutboundHostNotFound: (failure) => upstream(`DNS failure: ${failure.message}`),
        OutboundConnectionFailed: (failure) => upstream(failure.message),
        OutboundTooManyRedirects: (failure) => upstream(failure.message)
      })
    )
    if (answer._tag === "TooLarge") {
      const { failure } = answer
      const head = new TextDecoder().decode(failure.head)
      // A failed call keeps no request as sent: show the tool's template instead.
      return {
        ok: false,
        latencyMs: Math.round(performance.now() - started),
        request: { method: definition.method, url: definition.url, headers: {}, body: null, secretsUsed: [] },
        response: { ...preview(failure.status, failure.headers, head, failure.head.length), truncated: true },
        output: null,
        error: { kind: "response-too-large", message: failure.message }
      } satisfies ToolTestAnswer
    }
    const { result } = answer
    const response = preview(result.status, result.headers, result.body, result.sizeBytes)
    const ok = result.status >= 200 && result.status < 300
    return {
      ok,
      latencyMs: result.latencyMs,
      request: result.request,
      response,
      output: ok ? outputOf(result.body, response.contentType) : null,
      error: ok ? null : { kind: "http-status", message: `The upstream answered ${result.status}` }
    } satisfies ToolTestAnswer
  })
