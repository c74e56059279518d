/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a request's server span reaches the
 * collector with the trace id the response named.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import * as Http from "node:http"
import type * as Net from "node:net"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

/** A collector that keeps the OTLP/JSON trace exports it receives. */
const fakeCollector = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly exports: Array<any>; readonly server: Http.Server }>((resume) => {
    const exports: Array<any> = []
    const server = Http.createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        if (request.url === "/v1/traces") exports.push(JSON.parse(body))
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}`, exports, server }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

const spansOf = (exports: ReadonlyArray<any>) =>
  exports.flatMap((batch) =>
    batch.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans))
  )

describe("trace export", () => {
  it.scopedLive("sends each request's server span to the OTLP collector", () =>
    Effect.gen(function*() {
      const collector = yield* fakeCollector
      yield* Effect.gen(function*() {
        const res = yield* exchange(HttpClientRequest.get("/health/live"), { propagateTrace: false })
        const traceId = res.headers["x-trace-id"]
        const span = yield* Effect.suspend(() => {
          const found = spansOf(collector.exports).find((span: any) => span.traceId === traceId && span.kind === 2)
          return found ? Effect.succeed(found) : Effect.fail("not exported yet")
        }).pipe(Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("15 seconds"))))
        const attributes = Object.fromEntries(span.attributes.map((a: any) => [a.key, Object.values(a.value)[0]]))
        expect(attributes["http.route"]).toBe("/health/live")
        expect(attributes["http.response.status_code"]).toBe(200)
        const resource = collector.exports[0].resourceSpans[0].resource.attributes
        expect(resource).toContainEqual({ key: "service.name", value: { stringValue: "parley" } })
      }).pipe(Effect.provide(testServer({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })))
    }), 60_000)
})
