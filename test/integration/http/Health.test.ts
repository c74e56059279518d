/**
 * Health and metrics, real from day one: readiness follows the database
 * (cut and restored through a proxy, never the shared server), and /metrics
 * is valid Prometheus text, counted by route and status, gated by its token.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { exchange } from "../../support/Http.js"
import { promtoolCheck } from "../../support/Promtool.js"
import { startTcpProxy, type TcpProxy } from "../../support/TcpProxy.js"
import { adminUrl, databaseUrl, freshDatabase } from "../../support/TestDatabase.js"
import { testServer } from "../../support/TestServer.js"

/** Poll readiness until it answers `status`. */
const readinessBecomes = (status: number) =>
  exchange(HttpClientRequest.get("/health/ready")).pipe(
    Effect.filterOrFail((res) => res.status === status, (res) => new Error(`readiness is ${res.status}: ${res.text}`)),
    Effect.retry(Schedule.spaced("200 millis").pipe(Schedule.upTo("20 seconds")))
  )

/**
 * A series' value in Prometheus text (0 when absent), summed over its lines:
 * Effect's registry keeps a histogram per `Metric.histogram` call (its
 * boundaries compare by reference), so a process that evaluated the metrics
 * module once per test file shows one per file.
 */
const sample = (text: string, series: string): number =>
  text.split("\n").filter((line) => line.startsWith(`${series} `)).reduce(
    (sum, line) => sum + Number(line.slice(series.length + 1)),
    0
  )

describe("health", () => {
  layer(testServer(), { excludeTestServices: true })("liveness and metrics", (it) => {
    it.effect("liveness answers while the process runs", () =>
      Effect.gen(function*() {
        const res = yield* exchange(HttpClientRequest.get("/health/live"))
        expect(res.status).toBe(200)
        expect(res.json).toMatchObject({ status: "ok" })
      }))

    it.effect("readiness reports the database and the migrations", () =>
      Effect.gen(function*() {
        const res = yield* exchange(HttpClientRequest.get("/health/ready"))
        expect(res.status).toBe(200)
        expect(res.json.status).toBe("ready")
        expect(res.json.checks.database.ok).toBe(true)
        expect(res.json.checks.migrations).toMatchObject({ ok: true })
        expect(res.json.checks.cluster).toMatchObject({
          ok: true,
          detail: expect.stringMatching(/^runner .* registered$/)
        })
      }))

    it.effect("metrics are valid Prometheus text with requests counted by route template and status", () =>
      Effect.gen(function*() {
        // Counted from a reading before the requests: the metric registry is
        // the process's, and other test files may have counted into it.
        const before = yield* exchange(HttpClientRequest.get("/metrics"))
        yield* exchange(HttpClientRequest.get("/health/live"))
        yield* exchange(HttpClientRequest.get("/v1/agents/0190c7a0-0000-7000-8000-000000000000"))
        yield* exchange(HttpClientRequest.get("/v1/no/such/route"))
        const res = yield* exchange(HttpClientRequest.get("/metrics"))
        expect(res.status).toBe(200)
        expect(res.headers["content-type"]).toContain("text/plain; version=0.0.4")
        expect(promtoolCheck(res.text)).toBe("")
        expect(res.text).toMatch(/parley_http_requests_total\{method="GET",route="\/health\/live",status="200"\} \d+/)
        const added = (series: string) => sample(res.text, series) - sample(before.text, series)
        expect(added(`parley_http_requests_total{method="GET",route="/v1/agents/:agent_id",status="401"}`)).toBe(1)
        expect(added(`parley_http_requests_total{method="GET",route="unmatched",status="404"}`)).toBe(1)
        expect(
          added(
            `parley_http_request_duration_seconds_bucket{method="GET",route="/v1/agents/:agent_id",status="401",le="+Inf"}`
          )
        ).toBe(1)
        expect(res.text).toMatch(/parley_db_pool_connections\{state="total"\} \d+/)
        expect(res.text).toMatch(/process_resident_memory_bytes \d+/)
      }))
  })

  layer(testServer({ METRICS_TOKEN: "scrape-me" }), { excludeTestServices: true })("a metrics token", (it) => {
    it.effect("is required as a bearer token once configured", () =>
      Effect.gen(function*() {
        const none = yield* exchange(HttpClientRequest.get("/metrics"))
        expect(none.status).toBe(401)
        expect(none.json._tag).toBe("Unauthenticated")
        const wrong = yield* exchange(HttpClientRequest.get("/metrics").pipe(HttpClientRequest.bearerToken("nope")))
        expect(wrong.status).toBe(401)
        const right = yield* exchange(
          HttpClientRequest.get("/metrics").pipe(HttpClientRequest.bearerToken("scrape-me"))
        )
        expect(right.status).toBe(200)
      }))
  })

  it.scopedLive(
    "readiness fails while the database is unreachable and recovers when it returns",
    () =>
      Effect.gen(function*() {
        const { name } = yield* freshDatabase
        const upstream = new URL(adminUrl)
        const proxy: TcpProxy = yield* Effect.acquireRelease(
          Effect.promise(() => startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) })),
          (proxy) => Effect.promise(() => proxy.close())
        )
        const viaProxy = new URL(databaseUrl(name))
        viaProxy.host = `127.0.0.1:${proxy.port}`
        yield* Effect.gen(function*() {
          yield* readinessBecomes(200)
          yield* Effect.promise(() => proxy.cut())
          const down = yield* readinessBecomes(503)
          expect(down.json._tag).toBe("NotReady")
          expect(down.json.checks.database.ok).toBe(false)
          const live = yield* exchange(HttpClientRequest.get("/health/live"))
          expect(live.status).toBe(200)
          yield* Effect.promise(() => proxy.restore())
          const up = yield* readinessBecomes(200)
          expect(up.json.checks.database.ok).toBe(true)
        }).pipe(Effect.provide(testServer({ DATABASE_URL: viaProxy.toString() })))
      }),
    60_000
  )
})
