/**
 * The outermost middleware: every response carries `x-trace-id` (the trace of
 * its span, continuing an incoming `traceparent`), is counted and timed by
 * route template and status, and is logged once as structured JSON.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Metric } from "effect"
import { httpRequestDuration, httpRequests, httpRequestsInFlight } from "../../observability/Metrics.js"
import { currentRequestFacts, type RequestFacts } from "../../observability/RequestLog.js"

/** The header that names a response's trace. */
export const TRACE_HEADER = "x-trace-id"

const botParams = ["agent_id", "slug"] as const

/** The values of a template's bot parameters in a concrete path (`/v1/agents/:agent_id` against `/v1/agents/42`). */
const botIdOf = (template: string, path: string): string | undefined => {
  const names = template.split("/")
  const values = path.split("?")[0]!.split("/")
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!.replace(/^:/, "")
    if (names[i]!.startsWith(":") && (botParams as ReadonlyArray<string>).includes(name)) return values[i]
  }
  return undefined
}

export const requestObservability = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = performance.now()
    const span = yield* Effect.orDie(Effect.currentSpan)
    const facts: RequestFacts = {}
    yield* Metric.increment(httpRequestsInFlight)
    yield* HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.gen(function*() {
        const route = span.attributes.get("http.route")
        const template = typeof route === "string" ? route : "unmatched"
        const status = String(response.status)
        const seconds = (performance.now() - started) / 1000
        const tagged = <M extends Metric.Metric<any, any, any>>(metric: M) =>
          metric.pipe(
            Metric.tagged("method", request.method),
            Metric.tagged("route", template),
            Metric.tagged("status", status)
          )
        yield* Metric.increment(tagged(httpRequests))
        yield* Metric.update(tagged(httpRequestDuration), seconds)
        const botId = facts.botId ?? (typeof route === "string" ? botIdOf(route, request.url) : undefined)
        yield* Effect.logInfo("http.request").pipe(
          Effect.annotateLogs({
            method: request.method,
            route: template,
            path: request.url.split("?")[0],
            status: response.status,
            durationMs: Math.round(seconds * 100_000) / 100,
            traceId: span.traceId,
            ...(facts.workspaceId !== undefined ? { workspaceId: facts.workspaceId } : {}),
            ...(botId !== undefined ? { botId } : {})
          })
        )
        return HttpServerResponse.setHeader(response, TRACE_HEADER, span.traceId)
      })
    )
    return yield* Effect.locally(app, currentRequestFacts, facts).pipe(
      Effect.ensuring(Metric.incrementBy(httpRequestsInFlight, -1))
    )
  })
