/**
 * Trying a workspace tool once with sample input (`POST
 * /v1/workspace-tools/{id}/test`), as an AI agent tool's test does: any
 * answer of the upstream is a result (`ok: false` for a status other than 2xx
 * or a body over `maxResponseBytes`), no answer at all is `UpstreamFailed`
 * (naming the cause: refused by the address rule, DNS, connection, too many
 * redirects) and a time-out is `Timeout`. The vault reads are on the tester's
 * behalf and for the tool. Nothing is stored.
 */
import { Effect } from "effect"
import { Timeout, UpstreamFailed } from "../../domain/HttpErrors.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import type { JsonValue } from "../../domain/Json.js"
import type { WorkspaceToolId } from "../../domain/workspace/Ids.js"
import {
  TOOL_TEST_BODY_PREVIEW,
  type ToolTestResponse,
  type WorkspaceToolTestResult
} from "../../domain/workspace/ToolCallResult.js"
import { ToolCalls } from "./ToolCalls.js"
import { definitionOf, toolRef, WorkspaceTools } from "./WorkspaceTools.js"

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

export class WorkspaceToolTests extends Effect.Service<WorkspaceToolTests>()(
  "parley/services/workspace/WorkspaceToolTests",
  {
    effect: Effect.gen(function*() {
      const tools = yield* WorkspaceTools
      const calls = yield* ToolCalls

      const test = Effect.fn("WorkspaceTools.test")(function*(
        principal: Principal,
        id: WorkspaceToolId,
        input: Readonly<Record<string, JsonValue>>
      ) {
        const tool = yield* tools.get(principal, id)
        const caller = { workspaceId: principal.workspaceId, usedBy: toolRef(tool), actor: actorOf(principal) }
        const upstream = (message: string) => new UpstreamFailed({ provider: tool.name, message })
        const started = performance.now()
        const answer = yield* calls.call(caller, definitionOf(tool), input).pipe(
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
        const base = { toolId: tool.id, name: tool.name }
        if (answer._tag === "TooLarge") {
          const { failure } = answer
          const head = new TextDecoder().decode(failure.head)
          // The request as sent is not kept by a failed call: show the tool's template instead.
          return {
            ...base,
            ok: false,
            latencyMs: Math.round(performance.now() - started),
            request: { method: tool.method, url: tool.url, headers: {}, body: null, secretsUsed: [] },
            response: { ...preview(failure.status, failure.headers, head, failure.head.length), truncated: true },
            output: null,
            error: { kind: "response-too-large", message: failure.message }
          } satisfies WorkspaceToolTestResult
        }
        const { result } = answer
        const response = preview(result.status, result.headers, result.body, result.sizeBytes)
        const ok = result.status >= 200 && result.status < 300
        return {
          ...base,
          ok,
          latencyMs: result.latencyMs,
          request: result.request,
          response,
          output: ok ? outputOf(result.body, response.contentType) : null,
          error: ok ? null : { kind: "http-status", message: `The upstream answered ${result.status}` }
        } satisfies WorkspaceToolTestResult
      })

      return { test } as const
    })
  }
) {}
