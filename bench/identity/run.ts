/**
 * What identity costs, measured on this machine in one run:
 *
 * 1. hashing a password (scrypt N=2^15, r=8, p=3) next to one SHA-256 of it;
 * 2. a signed-in request next to `GET /health/live`: authentication alone
 *    (JWT signature, session and grants from the node's cache; the route is
 *    not built yet and answers 501 after it) and `GET /v1/auth/me` (two reads
 *    more), sequentially and with 8 requests in flight;
 * 3. a login (`POST /v1/auth/login`: limits, scrypt, session, two JWTs), and a
 *    refused one for a known and for an unknown email (they must cost alike);
 * 4. how long after a logout answered on node A the session's token stops
 *    working on node B, which had it cached (LISTEN/NOTIFY), next to the
 *    same on node A.
 *
 * Two real nodes (the production composition, over HTTP on loopback) share a
 * fresh PostgreSQL database, dropped at the end.
 *
 *   npx tsx bench/identity/run.ts            (PARLEY_TEST_PG_URL picks the server)
 */
import { HttpClientRequest } from "@effect/platform"
import { type Context, Duration, Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import * as Crypto from "node:crypto"
import * as Os from "node:os"
import { PasswordHasher } from "../../src/services/PasswordHasher.js"
import { as, freshAddress, PASSWORD, post, signUp } from "../../test/support/Accounts.js"
import { exchange } from "../../test/support/Http.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { testServer } from "../../test/support/TestServer.js"
import { runBench } from "../support/Run.js"

const percentile = (samples: ReadonlyArray<number>, p: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const ms = (value: number) => value.toFixed(value < 1 ? 3 : 1).padStart(9)
const row = (label: string, samples: ReadonlyArray<number>) =>
  console.log(
    `${label.padEnd(44)} p50 ${ms(percentile(samples, 50))} ms   p95 ${
      ms(percentile(samples, 95))
    } ms   n=${samples.length}`
  )

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const start = performance.now()
    const value = yield* effect
    return { value, millis: performance.now() - start }
  })

const sample = <A, E, R>(n: number, effect: Effect.Effect<A, E, R>) =>
  Effect.forEach(Array.from({ length: n }), () => Effect.map(timed(effect), (t) => t.millis))

/** Requests per second with `inFlight` concurrent loops for `duration`. */
const throughput = <A, E, R>(effect: Effect.Effect<A, E, R>, inFlight: number, duration: Duration.DurationInput) =>
  Effect.gen(function*() {
    const until = performance.now() + Duration.toMillis(duration)
    let done = 0
    yield* Effect.forEach(Array.from({ length: inFlight }), () =>
      Effect.whileLoop({
        while: () => performance.now() < until,
        body: () => effect,
        step: () => {
          done++
        }
      }), { concurrency: "unbounded", discard: true })
    return done / (Duration.toMillis(duration) / 1000)
  })

const expectStatus = (status: number) => (answer: { status: number; text: string }) =>
  answer.status === status
    ? Effect.void
    : Effect.dieMessage(`expected ${status}, got ${answer.status}: ${answer.text}`)

const main = Effect.gen(function*() {
  console.log(`identity benchmark: ${Os.cpus().length} CPUs (${Os.cpus()[0]?.model ?? "?"}), Node ${process.version}`)
  const { url } = yield* emptyDatabase
  const quiet = Logger.minimumLogLevel(LogLevel.Error)
  const a = yield* Layer.build(testServer({ DATABASE_URL: url }, quiet))
  const b = yield* Layer.build(testServer({ DATABASE_URL: url }, quiet))
  const onA = <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, a as Context.Context<R>)
  const onB = <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, b as Context.Context<R>)

  console.log("\n1. password hashing")
  const hasher = yield* Effect.provide(PasswordHasher, PasswordHasher.Default)
  const password = Redacted.make(PASSWORD)
  row("SHA-256 of the password (baseline)", yield* sample(50, Effect.sync(() => Crypto.hash("sha256", PASSWORD))))
  row("scrypt hash, N=2^15 r=8 p=3", yield* sample(20, hasher.hash(password)))

  console.log("\n2. a signed-in request, over HTTP on loopback")
  const account = yield* onA(signUp())
  const me = exchange(as(HttpClientRequest.get("/v1/auth/me"), { token: account.token })).pipe(
    Effect.tap(expectStatus(200))
  )
  const live = exchange(HttpClientRequest.get("/health/live")).pipe(Effect.tap(expectStatus(200)))
  // Authentication alone: the Assistants area is not built, so the route answers 501 right after the check.
  const authOnly = exchange(as(HttpClientRequest.get("/v1/agents"), { token: account.token })).pipe(
    Effect.tap(expectStatus(501))
  )
  yield* onA(sample(50, Effect.all([me, live, authOnly])))
  row("GET /health/live (baseline)", yield* onA(sample(500, live)))
  row("GET /v1/agents (authentication only)", yield* onA(sample(500, authOnly)))
  row("GET /v1/auth/me (authentication + 2 reads)", yield* onA(sample(500, me)))
  const liveRate = yield* onA(throughput(live, 8, "3 seconds"))
  const authRate = yield* onA(throughput(authOnly, 8, "3 seconds"))
  const meRate = yield* onA(throughput(me, 8, "3 seconds"))
  const rate = (label: string, value: number) =>
    console.log(`${label.padEnd(44)} ${value.toFixed(0).padStart(6)} req/s`)
  rate("8 in flight, 3 s: GET /health/live (baseline)", liveRate)
  rate("8 in flight, 3 s: GET /v1/agents (auth only)", authRate)
  rate("8 in flight, 3 s: GET /v1/auth/me", meRate)

  console.log("\n3. a login")
  // Each login from its own address, so the per-address limit (50 per 15 minutes) is not what is measured.
  const login = Effect.suspend(() =>
    post("/v1/auth/login", { email: account.email, password: PASSWORD }, { address: freshAddress() })
  ).pipe(Effect.tap(expectStatus(200)))
  row("POST /v1/auth/login", yield* onA(sample(30, login)))
  // An unknown email must cost what a wrong password costs, or timing tells which emails have accounts.
  const refused = (email: string) =>
    Effect.suspend(() => post("/v1/auth/login", { email, password: "not the password" }, { address: freshAddress() }))
      .pipe(Effect.tap(expectStatus(401)))
  row("  wrong password, known email", yield* onA(sample(20, refused(account.email))))
  row("  unknown email (dummy hash)", yield* onA(sample(20, refused("nobody-at-all@example.com"))))

  console.log("\n4. a logout on node A, until the token fails on node B")
  const propagation = (poll: typeof onA) =>
    Effect.gen(function*() {
      const token = (yield* onA(login)).json.accessToken as string
      const ask = exchange(as(HttpClientRequest.get("/v1/auth/me"), { token }))
      yield* poll(ask).pipe(Effect.flatMap(expectStatus(200)))
      yield* onA(post("/v1/auth/logout", {}, { token })).pipe(Effect.flatMap(expectStatus(204)))
      const start = performance.now()
      for (;;) {
        const answer = yield* poll(ask)
        if (answer.status === 401) return performance.now() - start
        if (performance.now() - start > 5_000) return yield* Effect.dieMessage("the token still works after 5 s")
      }
    })
  const trials = (poll: typeof onA) => Effect.forEach(Array.from({ length: 30 }), () => propagation(poll))
  row("on node A itself (baseline)", yield* trials(onA))
  row("on node B", yield* trials(onB))
  console.log("\n(time from the logout's answer to the first 401, polling back to back; includes one request)")
})

runBench(main)
