/**
 * "Test" on the LLM settings: one real round trip through the provider, with
 * the key read from the vault (or the environment) at that moment. A
 * provider's failure is the answer (`ok: false` naming its cause: a host that
 * does not resolve, TLS, a refused key, an unknown model, a time-out, the
 * outbound rule), not an error of the route. The tokens it spends are counted.
 */
import { Clock, Duration, Effect, Option, Redacted } from "effect"
import { RequestTimeout } from "../../config/Settings.js"
import { actorOf, type Principal } from "../../domain/identity/Principal.js"
import { stripCredentials } from "../../domain/llm/LlmFailureRules.js"
import { problemsOf } from "../../domain/settings/AgentLlmSettings.js"
import type { LlmConnectionTestRequest, LlmConnectionTestResult } from "../../domain/settings/LlmConnectionTest.js"
import { settingsInvalid } from "../../domain/settings/SettingsInvalid.js"
import { LlmClients } from "../../providers/llm/LlmClients.js"
import { UsageMeter } from "../workspace/UsageMeter.js"
import { entryOf, LlmInForce } from "./LlmInForce.js"

/** What the model is asked when the request names no prompt. */
export const DEFAULT_TEST_PROMPT = "This is a connection test. Reply with the single word: ready."

/** A test request, defaults applied. */
type TestRequest = typeof LlmConnectionTestRequest.Type

/** The most of the reply an answer shows. */
const REPLY_CHARS = 500

/** How long before the route's own time-out the round trip gives up, so a slow provider is an answer, not a 504. */
const ANSWER_MARGIN = Duration.seconds(5)

export class AgentLlmTests extends Effect.Service<AgentLlmTests>()("parley/services/settings/AgentLlmTests", {
  effect: Effect.gen(function*() {
    const inForce = yield* LlmInForce
    const clients = yield* LlmClients
    const usage = yield* UsageMeter
    const routeTimeout = yield* RequestTimeout
    const longest = Math.max(1, Math.floor(Duration.toSeconds(Duration.subtract(routeTimeout, ANSWER_MARGIN))))

    /** The connection to try: the proposed one, or the saved fallback, or the primary in force. */
    const chosen = Effect.fn("AgentLlmTests.chosen")(function*(principal: Principal, request: TestRequest) {
      if (request.connection !== undefined) {
        const problems = problemsOf(request.connection, "connection")
        if (problems.length > 0) return yield* settingsInvalid(problems)
        return { entry: entryOf(request.connection), source: "proposed" as const }
      }
      const { fallback, primary } = yield* inForce.resolve(principal.workspaceId)
      if (request.target === "primary") return { entry: primary, source: primary.source }
      if (fallback === null) {
        return yield* settingsInvalid([{
          field: "target",
          message: "the workspace has no fallback LLM: save one, or send the connection to try"
        }])
      }
      return { entry: fallback, source: fallback.source }
    })

    /** Make the round trip and report it. */
    const run = Effect.fn("AgentLlmTests.run")(function*(principal: Principal, request: TestRequest) {
      const { entry, source } = yield* chosen(principal, request)
      const workspaceId = principal.workspaceId
      const { apiKey } = yield* inForce.target(entry, { workspaceId, actor: actorOf(principal) })
      const connection = {
        ...entry.connection,
        requestTimeoutSeconds: Math.min(entry.connection.requestTimeoutSeconds, longest)
      }
      const { model, provider } = connection
      const started = yield* Clock.currentTimeMillis
      const outcome = yield* clients.roundTrip({
        connection,
        apiKey,
        prompt: request.prompt ?? DEFAULT_TEST_PROMPT
      }).pipe(Effect.either)
      const elapsed = (yield* Clock.currentTimeMillis) - started
      if (outcome._tag === "Left") {
        const failure = outcome.left
        const secrets = Option.match(apiKey, { onNone: () => [], onSome: (key) => [Redacted.value(key)] })
        return {
          ok: false,
          source,
          provider,
          model,
          reportedModel: null,
          latencyMs: elapsed,
          usage: null,
          reply: null,
          error: {
            kind: failure.kind,
            message: stripCredentials(failure.message, secrets),
            httpStatus: failure.httpStatus
          }
        } satisfies LlmConnectionTestResult
      }
      const answer = outcome.right
      yield* usage.record({
        workspaceId,
        provider,
        model,
        inputTokens: answer.usage.inputTokens,
        outputTokens: answer.usage.outputTokens
      })
      return {
        ok: true,
        source,
        provider,
        model,
        reportedModel: answer.reportedModel === null ? null : answer.reportedModel.slice(0, 200),
        latencyMs: Math.round(answer.latencyMs),
        usage: answer.usage,
        reply: answer.reply.slice(0, REPLY_CHARS),
        error: null
      } satisfies LlmConnectionTestResult
    })

    return { run } as const
  }),
  dependencies: [LlmInForce.Default]
}) {}
