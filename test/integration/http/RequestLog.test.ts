/**
 * Each request is logged once, as a structured entry naming its method,
 * route template, status, duration, trace id and, where the path names one,
 * the bot; and a handler that outlives the time-out answers a typed 504.
 */
import { HttpApp, HttpClientRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { handlerTimeout } from "../../../src/http/middleware/HandlerTimeout.js"
import { exchange } from "../../support/Http.js"
import { capturingLogger, type LogEntry, testServer } from "../../support/TestServer.js"

const entries: Array<LogEntry> = []

describe("request handling", () => {
  layer(testServer({}, capturingLogger(entries)), { excludeTestServices: true })("logs", (it) => {
    it.effect("one entry per request, with route, status, duration, trace id and bot", () =>
      Effect.gen(function*() {
        entries.length = 0
        const agentId = "0190c7a0-0000-7000-8000-00000000abcd"
        const res = yield* exchange(HttpClientRequest.get(`/v1/agents/${agentId}/intents`))
        const missing = yield* exchange(HttpClientRequest.get("/v1/missing"))
        const logged = entries.filter((entry) => entry.message === "http.request")
        expect(logged).toHaveLength(2)
        expect(logged[0]!.annotations).toMatchObject({
          method: "GET",
          route: "/v1/agents/:agent_id/intents",
          path: `/v1/agents/${agentId}/intents`,
          status: 401,
          traceId: res.headers["x-trace-id"],
          botId: agentId
        })
        expect(typeof logged[0]!.annotations["durationMs"]).toBe("number")
        expect(logged[1]!.annotations).toMatchObject({
          route: "unmatched",
          status: 404,
          traceId: missing.headers["x-trace-id"]
        })
        expect(logged[1]!.annotations).not.toHaveProperty("botId")
      }))

    it.effect("a credential in the path never reaches the log", () =>
      Effect.gen(function*() {
        entries.length = 0
        const token = "agt_secretsecretsecretsecretsecretsecretsecret0"
        yield* exchange(HttpClientRequest.post(`/v1/public/ai-agents/${token}/turn`))
        const logged = entries.filter((entry) => entry.message === "http.request")
        expect(logged[0]!.annotations["path"]).toBe("/v1/public/ai-agents/***/turn")
        expect(JSON.stringify(entries)).not.toContain(token)
      }))
  })

  it.live("a handler that runs past the time-out answers 504 Timeout", () =>
    Effect.gen(function*() {
      // Route handlers run interruptibly (the router makes them so), which lets the time-out stop them.
      const slow = Effect.interruptible(Effect.as(Effect.sleep("5 seconds"), HttpServerResponse.text("late")))
      const started = Date.now()
      const handler = HttpApp.toWebHandler(slow.pipe(handlerTimeout(Duration.millis(50))))
      const response = yield* Effect.promise(() => handler(new Request("http://localhost/slow")))
      expect(response.status).toBe(504)
      expect(Date.now() - started).toBeLessThan(2_000)
      expect(yield* Effect.promise(() => response.json())).toEqual({
        _tag: "Timeout",
        timeoutMillis: 50,
        message: "The request took longer than 50 ms"
      })
    }))
})
