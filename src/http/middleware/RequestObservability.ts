/**
 * The outermost middleware: every response carries `x-trace-id` (the trace of
 * its span, continuing an incoming `traceparent`), is counted and timed by
 * route template and status, and is logged once as structured JSON. A request
 * whose client went away before its answer is counted and logged as `499`
 * with `abandoned: true`: nothing was sent to anyone (the platform would have
 * it a `503` when the abort reached a forked fiber first, a handler time-out's
 * for instance).
 */
import { HttpApp, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, HashSet, Metric } from "effect"
import { withTags } from "../../observability/FixedTags.js"
import { httpRequestDuration, httpRequests, httpRequestsInFlight } from "../../observability/Metrics.js"
import { currentRequestFacts, type RequestFacts } from "../../observability/RequestLog.js"

/** The header that names a response's trace. */
export const TRACE_HEADER = "x-trace-id"

/** Path parameters that name the bot a request acts on. */
const botParams: ReadonlyArray<string> = ["agent_id", "slug"]
/** Path parameters that are credentials: never written to a log. */
const secretParams: ReadonlyArray<string> = ["public_token"]

/**
 * The path with credential segments masked, and the bot it names, read
 * against the route template (`/v1/agents/:agent_id` against `/v1/agents/42`).
 */
const readPath = (template: string | undefined, url: string): { readonly path: string; readonly botId?: string } => {
  const values = url.split("?")[0]!.split("/")
  if (template === undefined) return { path: values.join("/") }
  let botId: string | undefined
  const names = template.split("/")
  names.forEach((segment, i) => {
    if (!segment.startsWith(":")) return
    const name = segment.slice(1).replace(/\?$/, "")
    if (secretParams.includes(name)) values[i] = "***"
    else if (botId === undefined && botParams.includes(name)) botId = values[i]
  })
  return botId === undefined ? { path: values.join("/") } : { path: values.join("/"), botId }
}

/** The request counter and timer tagged with a method, route and status: made once per combination, not per request. */
interface TaggedMetrics {
  readonly requests: typeof httpRequests
  readonly duration: typeof httpRequestDuration
}
const taggedMetrics = new Map<string, TaggedMetrics>()
const TAGGED_METRICS_CAPACITY = 10_000
export const metricsFor = (method: string, route: string, status: string): TaggedMetrics => {
  const key = `${method} ${route} ${status}`
  let metrics = taggedMetrics.get(key)
  if (metrics === undefined) {
    const tags = [["method", method], ["route", route], ["status", status]] as const
    metrics = { requests: withTags(httpRequests, tags), duration: withTags(httpRequestDuration, tags) }
    // Routes are templates, so the combinations are few; the bound only guards against a surprise.
    if (taggedMetrics.size < TAGGED_METRICS_CAPACITY) taggedMetrics.set(key, metrics)
  }
  return metrics
}

/** The status of a request abandoned by its client (nginx's "client closed request"). */
export const ABANDONED_STATUS = 499

/** Whether the client went away: the server interrupts the request's fiber as `clientAbortFiberId` then. */
const abandoned = Effect.map(
  Effect.descriptor,
  (fiber) => HashSet.has(fiber.interruptors, HttpServerError.clientAbortFiberId)
)

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
        const gone = yield* abandoned
        const status = String(gone ? ABANDONED_STATUS : response.status)
        const seconds = (performance.now() - started) / 1000
        const metrics = metricsFor(request.method, template, status)
        yield* Metric.increment(metrics.requests)
        yield* Metric.update(metrics.duration, seconds)
        const { botId: pathBotId, path } = readPath(typeof route === "string" ? route : undefined, request.url)
        const botId = facts.botId ?? pathBotId
        yield* Effect.logInfo("http.request").pipe(
          Effect.annotateLogs({
            method: request.method,
            route: template,
            path,
            status: Number(status),
            ...(gone ? { abandoned: true } : {}),
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
