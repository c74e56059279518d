/**
 * The HTTP client every network provider uses (undici). Connections go through the
 * outbound address rule of HTTP tools (`LlmDispatcher`), through Parley's lean
 * client (`UndiciHttpClient`): a base URL that
 * resolves to a loopback, private, link-local or metadata address is refused
 * before any socket opens, unless `PARLEY_TOOL_ALLOWED_HOSTS` opens it.
 * Redirects are not followed (an LLM API has no reason to redirect, and a
 * redirect is where an SSRF hides). Each connection's time-out bounds the
 * wait for the answer's head. With `PARLEY_LLM_CASSETTE`, exchanges are
 * recorded to, or replayed from, a file (`LlmCassette`).
 */
import { type HttpClient, HttpClientError, type HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { LlmCassette, OutboundAllowedHosts } from "../../config/Settings.js"
import type { LlmConnection } from "../../domain/settings/LlmConnection.js"
import { llmFailure } from "./LlmCallFailure.js"
import { readCassette, recording, replaying } from "./LlmCassette.js"
import { makeLlmDispatcher } from "./LlmDispatcher.js"
import { makeUndiciHttpClient } from "./UndiciHttpClient.js"

export class LlmHttpClient extends Effect.Service<LlmHttpClient>()("parley/providers/llm/LlmHttpClient", {
  scoped: Effect.gen(function*() {
    const allowList = yield* OutboundAllowedHosts
    const cassette = yield* LlmCassette
    const dispatcher = yield* Effect.acquireRelease(
      Effect.sync(() => makeLlmDispatcher(allowList)),
      (agent) => Effect.promise(() => agent.destroy())
    )
    const timedOut = (connection: LlmConnection) => (request: HttpClientRequest.HttpClientRequest) => {
      const host = URL.canParse(request.url) ? new URL(request.url).host : request.url
      const failure = llmFailure("timeout", `${host} did not answer within ${connection.requestTimeoutSeconds} s`)
      return new HttpClientError.RequestError({
        request,
        reason: "Transport",
        cause: failure,
        description: failure.message
      })
    }
    const replay = cassette.path._tag === "Some" && cassette.mode === "replay"
      ? replaying(readCassette(cassette.path.value))
      : undefined

    /** The client for one connection: its time-out on the answer's head. */
    const forConnection = (connection: LlmConnection): HttpClient.HttpClient => {
      if (replay !== undefined) return replay
      const network = makeUndiciHttpClient(dispatcher, connection.requestTimeoutSeconds * 1000, timedOut(connection))
      return cassette.path._tag === "Some" ? recording(network, cassette.path.value) : network
    }

    return { forConnection } as const
  })
}) {}
