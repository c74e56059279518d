/**
 * The HTTP client every network provider uses (undici). Connections go through the
 * outbound address rule of HTTP tools (`LlmDispatcher`): a base URL that
 * resolves to a loopback, private, link-local or metadata address is refused
 * before any socket opens, unless `PARLEY_TOOL_ALLOWED_HOSTS` opens it.
 * Redirects are not followed (an LLM API has no reason to redirect, and a
 * redirect is where an SSRF hides). Each connection's time-out bounds the
 * wait for the answer's head. With `PARLEY_LLM_CASSETTE`, exchanges are
 * recorded to, or replayed from, a file (`LlmCassette`).
 */
import { HttpClient, HttpClientError } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect } from "effect"
import { LlmCassette, OutboundAllowedHosts } from "../../config/Settings.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { llmFailure } from "./LlmCallFailure.js"
import { readCassette, recording, replaying } from "./LlmCassette.js"
import { makeLlmDispatcher } from "./LlmDispatcher.js"

export class LlmHttpClient extends Effect.Service<LlmHttpClient>()("parley/providers/llm/LlmHttpClient", {
  scoped: Effect.gen(function*() {
    const allowList = yield* OutboundAllowedHosts
    const cassette = yield* LlmCassette
    const dispatcher = yield* Effect.acquireRelease(
      Effect.sync(() => makeLlmDispatcher(allowList)),
      (agent) => Effect.promise(() => agent.destroy())
    )
    const network = NodeHttpClient.makeUndici(dispatcher)
    const client = cassette.path._tag === "None"
      ? network
      : cassette.mode === "record"
      ? recording(network, cassette.path.value)
      : replaying(readCassette(cassette.path.value))

    /** The client for one connection: its time-out on the answer's head. */
    const forConnection = (connection: LlmConnection): HttpClient.HttpClient => {
      const timeoutMs = connection.requestTimeoutSeconds * 1000
      return HttpClient.transform(client, (effect, request) =>
        Effect.timeoutFail(effect, {
          duration: timeoutMs,
          onTimeout: () => {
            const host = URL.canParse(request.url) ? new URL(request.url).host : request.url
            const failure = llmFailure("timeout", `${host} did not answer within ${connection.requestTimeoutSeconds} s`)
            return new HttpClientError.RequestError({
              request,
              reason: "Transport",
              cause: failure,
              description: failure.message
            })
          }
        }))
    }

    return { forConnection } as const
  })
}) {}
