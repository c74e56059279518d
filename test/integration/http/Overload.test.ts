/**
 * Admission control on a real node over HTTP: with a bound of 2 turns in
 * flight, two turns held back by a row lock taken in the database keep their
 * permits, even when their clients go away, and the next turn is refused at
 * once with `503 Overloaded` and `Retry-After`; refusals make readiness 503
 * and a calm makes it 200 again; the requests bound answers before
 * authentication and leaves health and metrics alone; an abandoned request is
 * logged and counted as 499.
 */
import { HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Option, Schedule } from "effect"
import type Pg from "pg"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { type Exchange, exchange } from "../../support/Http.js"
import { promtoolCheck } from "../../support/Promtool.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"
import { capturingLogger, type LogEntry, testServer } from "../../support/TestServer.js"

class Database extends Context.Tag("test/Overload/Database")<Database, { readonly url: string }>() {}

/**
 * A node on a database of the test's own, so the test can lock its rows; with
 * its front door (refusals answered before the app, as in production) or
 * without (the app's middleware alone refuses).
 */
const node = (settings: Record<string, string>, entries: Array<LogEntry>, frontDoor: boolean) =>
  Layer.unwrapEffect(
    Effect.map(
      Database,
      ({ url }) => testServer({ ...settings, DATABASE_URL: url }, capturingLogger(entries), { frontDoor })
    )
  ).pipe(Layer.provideMerge(Layer.scoped(Database, freshDatabase)))

/** An account with an echo Assistant and `count` sessions on its draft. */
const conversations = (count: number) =>
  Effect.gen(function*() {
    const account = yield* signUp()
    const agent = yield* post("/v1/agents", { name: "Echo" }, account)
    const flow = yield* exchange(
      as(
        HttpClientRequest.put(`/v1/agents/${agent.json.id}/flow`).pipe(HttpClientRequest.bodyUnsafeJson(echoFlow)),
        account
      )
    )
    expect(flow.status).toBe(200)
    const sessions = yield* Effect.forEach(Array.from({ length: count }), () =>
      Effect.map(post("/v1/runtime/sessions", { agentId: agent.json.id }, account), (res) =>
        res.json.sessionId as string))
    return { account, sessions }
  })

let keys = 0
const turn = (account: TestAccount, sessionId: string, key = `overload-${++keys}`) =>
  exchange(
    as(
      HttpClientRequest.post(`/v1/runtime/sessions/${sessionId}/turns`).pipe(
        HttpClientRequest.setHeader("idempotency-key", key),
        HttpClientRequest.bodyUnsafeJson({ text: `hello ${key}` })
      ),
      account
    )
  )

const readiness = exchange(HttpClientRequest.get("/health/ready"))

/** Poll until `check` holds of readiness's answer. */
const readinessUntil = (check: (res: Exchange) => boolean) =>
  readiness.pipe(
    Effect.filterOrFail(check, (res) => new Error(`readiness is ${res.status}: ${res.text}`)),
    Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo("20 seconds")))
  )

/** Turns of these sessions wait (their transactions block) until the returned effect commits. */
const holdSessions = (pg: Pg.Client, sessions: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => pg.query("BEGIN"))
    yield* Effect.promise(() =>
      pg.query("SELECT id FROM runtime_sessions WHERE id = ANY($1::uuid[]) FOR UPDATE", [sessions])
    )
    return Effect.promise(() => pg.query("COMMIT")).pipe(Effect.asVoid)
  })

/** Turn requests the node counted as abandoned (499) so far. */
const abandonedTurns = Effect.map(exchange(HttpClientRequest.get("/metrics")), (metrics) =>
  Number(
    /parley_http_requests_total\{method="POST",route="\/v1\/runtime\/sessions\/:id\/turns",status="499"\} (\d+)/
      .exec(metrics.text)?.[1] ?? 0
  ))

const turnsInFlight = (count: number) =>
  readinessUntil((res) => String(res.json?.checks?.load?.detail).startsWith(`${count} of 2 turns in flight`))

for (const frontDoor of [true, false]) {
  describe(frontDoor ? "overload, at the front door" : "overload, in the app", () => {
    const entries: Array<LogEntry> = []
    layer(node({ PARLEY_MAX_TURNS_IN_FLIGHT: "2" }, entries, frontDoor), { excludeTestServices: true })(
      "turns",
      (it) => {
        it.effect("beyond the bound a turn is refused at once, readiness turns 503 and back, and nothing was done", () =>
          Effect.scoped(Effect.gen(function*() {
            const { url } = yield* Database
            const pg = yield* connectedClient(url)
            const { account, sessions } = yield* conversations(3)
            const release = yield* holdSessions(pg, sessions.slice(0, 2))

            const held = yield* Effect.forEach(sessions.slice(0, 2), (session) => Effect.fork(turn(account, session)))
            yield* turnsInFlight(2)

            const started = performance.now()
            const refused = yield* turn(account, sessions[2]!, "refused-then-retried")
            const millis = performance.now() - started
            expect(refused.status).toBe(503)
            expect(refused.json._tag).toBe("Overloaded")
            expect(refused.json.retryAfterSeconds).toBe(1)
            expect(refused.headers["retry-after"]).toBe("1")
            // Answered while both held turns still wait: it did not queue behind them.
            expect((yield* Effect.forEach(held, Fiber.poll)).every(Option.isNone)).toBe(true)
            expect(millis).toBeLessThan(5_000)
            // Refused at the edge, before authentication: without credentials it is a 503 too, not a 401.
            const anonymous = yield* exchange(
              HttpClientRequest.post(`/v1/runtime/sessions/${sessions[2]}/turns`).pipe(
                HttpClientRequest.bodyUnsafeJson({ text: "hello" })
              )
            )
            expect(anonymous.status).toBe(503)
            expect(anonymous.json._tag).toBe("Overloaded")
            // The answer any API response gets: the security headers, and no caching.
            expect(refused.headers).toMatchObject({
              "content-type": "application/json",
              "x-content-type-options": "nosniff",
              "x-frame-options": "DENY",
              "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
              "cache-control": "no-store"
            })
            // Refused at the front door, before the request had a span: it has no trace (the app's refusal has one).
            expect(refused.headers["x-trace-id"] === undefined).toBe(frontDoor)
            // A visitor's turn from a web page: the page may read the refusal and its Retry-After.
            const visitor = yield* exchange(
              HttpClientRequest.post(`/v1/public/runtime/sessions/${sessions[2]}/turns`).pipe(
                HttpClientRequest.setHeader("origin", "https://shop.example"),
                HttpClientRequest.bodyUnsafeJson({ text: "hello" })
              )
            )
            expect(visitor.status).toBe(503)
            expect(visitor.json).toEqual(refused.json)
            expect(visitor.headers).toMatchObject({
              "retry-after": "1",
              "access-control-allow-origin": "https://shop.example",
              "access-control-expose-headers": "retry-after, x-trace-id",
              "vary": "Origin"
            })

            // A sustained refusal makes the node saturated: readiness answers 503, naming the load.
            for (let i = 0; i < 11; i++) {
              expect((yield* turn(account, sessions[2]!)).status).toBe(503)
            }
            const saturated = yield* readiness
            expect(saturated.status).toBe(503)
            expect(saturated.json.checks.load).toMatchObject({ ok: false, detail: expect.stringMatching(/^saturated/) })

            yield* release
            const answered = yield* Effect.forEach(held, Fiber.join)
            expect(answered.map((res) => res.status)).toEqual([200, 200])

            // A calm makes it ready again.
            const ready = yield* readinessUntil((res) => res.status === 200)
            expect(ready.json.checks.load).toMatchObject({ ok: true, detail: expect.stringMatching(/^0 of 2 turns/) })

            // The refused turn did nothing: sent again with its key, it is the session's first.
            const retried = yield* turn(account, sessions[2]!, "refused-then-retried")
            expect(retried.status).toBe(200)
            expect(retried.json.turn).toBe(1)

            const metrics = yield* exchange(HttpClientRequest.get("/metrics"))
            expect(promtoolCheck(metrics.text)).toBe("")
            const rejected = /parley_admission_rejected_total\{gate="turns"\} (\d+)/.exec(metrics.text)
            expect(Number(rejected?.[1])).toBeGreaterThanOrEqual(13)
            expect(metrics.text).toMatch(/parley_admission_in_flight\{gate="turns"\} 0/)
            expect(metrics.text).toMatch(/parley_admission_limit\{gate="turns"\} 2/)
            // Refused before routing, yet counted under their route, not as "unmatched".
            const refusedTurns =
              /parley_http_requests_total\{method="POST",route="\/v1\/runtime\/sessions\/:id\/turns",status="503"\} (\d+)/
                .exec(metrics.text)
            expect(Number(refusedTurns?.[1])).toBeGreaterThanOrEqual(13)
          })))

        it.effect("a burst that meets one free room lets exactly one turn in", () =>
          Effect.scoped(Effect.gen(function*() {
            const { url } = yield* Database
            const pg = yield* connectedClient(url)
            const { account, sessions } = yield* conversations(11)
            const release = yield* holdSessions(pg, sessions)
            const first = yield* Effect.fork(turn(account, sessions[0]!))
            yield* turnsInFlight(1)

            // Ten at once for the one room left: one is let in, nine refused.
            const burst = yield* Effect.forEach(sessions.slice(1), (session) => Effect.fork(turn(account, session)))
            yield* turnsInFlight(2)
            const settled = yield* Effect.forEach(burst, Fiber.poll).pipe(
              Effect.map((polls) => polls.filter(Option.isSome).map((poll) => poll.value)),
              Effect.filterOrFail((done) => done.length >= 9, () => new Error("the refusals are not all in")),
              Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds")))
            )
            const answered = yield* Effect.all(settled)
            expect(answered.length).toBe(9)
            expect(answered.every((res) => res.status === 503 && res.json._tag === "Overloaded")).toBe(true)
            // At the door, the room was held for the first one through, so every other was refused there, untraced.
            if (frontDoor) expect(answered.every((res) => res.headers["x-trace-id"] === undefined)).toBe(true)

            yield* release
            expect((yield* Fiber.join(first)).status).toBe(200)
            const admitted = yield* Effect.forEach(burst, (fiber) => Fiber.join(fiber))
            expect(admitted.filter((res) => res.status === 200).length).toBe(1)
            yield* turnsInFlight(0)
            const load = (yield* readiness).json.checks.load.detail
            expect(load).toMatch(/^0 of 2 turns in flight/)
          })))

        it.effect("a turn whose client went away keeps its permit until it ends, and its request is logged as 499", () =>
          Effect.scoped(Effect.gen(function*() {
            const { url } = yield* Database
            const pg = yield* connectedClient(url)
            const { account, sessions } = yield* conversations(3)
            const release = yield* holdSessions(pg, sessions.slice(0, 2))
            // The metrics are the process's: another node of this file may have counted 499s before.
            const abandonedBefore = yield* abandonedTurns

            const abandoned = yield* Effect.forEach(
              sessions.slice(0, 2),
              (session) => Effect.fork(turn(account, session))
            )
            yield* turnsInFlight(2)
            yield* Effect.forEach(abandoned, Fiber.interrupt)
            // The clients are gone; their turns still wait on the lock, and still hold the permits.
            yield* Effect.sleep("300 millis")
            const refused = yield* turn(account, sessions[2]!)
            expect(refused.status).toBe(503)
            expect(refused.json._tag).toBe("Overloaded")

            yield* release
            yield* turnsInFlight(0)
            expect((yield* turn(account, sessions[2]!)).status).toBe(200)

            const logged = entries.filter((entry) =>
              entry.message === "http.request" && entry.annotations["route"] === "/v1/runtime/sessions/:id/turns"
            )
            const gone = logged.filter((entry) => entry.annotations["abandoned"] === true)
            expect(gone.length).toBe(2)
            expect(gone.every((entry) => entry.annotations["status"] === 499)).toBe(true)
            expect((yield* abandonedTurns) - abandonedBefore).toBe(2)
          })))
      }
    )

    layer(node({ PARLEY_MAX_REQUESTS_IN_FLIGHT: "2" }, [], frontDoor), { excludeTestServices: true })(
      "requests",
      (it) => {
        it.effect("beyond the bound a request is refused before authentication; health and metrics still answer", () =>
          Effect.scoped(Effect.gen(function*() {
            const { url } = yield* Database
            const pg = yield* connectedClient(url)
            const { account, sessions } = yield* conversations(2)
            const release = yield* holdSessions(pg, sessions)
            const held = yield* Effect.forEach(sessions, (session) => Effect.fork(turn(account, session)))
            yield* readinessUntil((res) => String(res.json?.checks?.load?.detail).includes("2 of 2 requests in flight"))

            // No credentials at all: a 401 if it were authenticated, a 503 as it is refused first.
            const refused = yield* exchange(HttpClientRequest.get("/v1/agents"))
            expect(refused.status).toBe(503)
            expect(refused.json._tag).toBe("Overloaded")
            expect(refused.headers["retry-after"]).toBe("1")
            expect((yield* exchange(HttpClientRequest.get("/health/live"))).status).toBe(200)
            expect((yield* exchange(HttpClientRequest.get("/metrics"))).status).toBe(200)

            yield* release
            expect((yield* Effect.forEach(held, Fiber.join)).map((res) => res.status)).toEqual([200, 200])
            expect((yield* exchange(HttpClientRequest.get("/v1/agents"))).status).toBe(401)
          })))
      }
    )
  })
}
