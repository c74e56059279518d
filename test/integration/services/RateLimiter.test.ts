/**
 * Brute-force limits against the real PostgreSQL, on the test clock: two
 * service instances on two pools stand in for two nodes of a cluster.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Layer, Schedule, String, TestClock, TestServices } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import type { RateLimited } from "../../../src/domain/HttpErrors.js"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { MigratorLive, SqlLive } from "../../../src/persistence/Sql.js"
import { bucketOf, RateLimiter, type RateRule } from "../../../src/services/RateLimiter.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { configFrom } from "../../support/TestServer.js"

class Database extends Context.Tag("test/RateLimiter/Database")<Database, { readonly url: string }>() {}

/** One node: its own pool on the database, its own limiter. */
const node = (url: string) =>
  RateLimiter.Default.pipe(
    Layer.provideMerge(SqlLive),
    Layer.provide(Layer.setConfigProvider(configFrom({ DATABASE_URL: url })))
  )

const Env = Layer.unwrapEffect(Effect.map(Database, ({ url }) => node(url))).pipe(
  Layer.provideMerge(Layer.scoped(Database, freshDatabase))
)

/** The embedded database, migrated, in a directory of its own. */
const EmbeddedEnv = Layer.merge(RateLimiter.Default, MigratorLive).pipe(
  Layer.provideMerge(PgliteClient.layer({
    dataDir: Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-ratelimiter-")),
    transformQueryNames: String.camelToSnake,
    transformResultNames: String.snakeToCamel
  }))
)

let rules = 0
/** A rule of its own for each test, so tests sharing the database never share a bucket. */
const rule = (limit: number, window: RateRule["window"]): RateRule => ({ name: `test.rule${++rules}`, limit, window })

/** Move the test clock to the start of one of `rule`'s windows, as the tests' arithmetic assumes. */
const startOfWindow = (rule: RateRule) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const millis = Duration.toMillis(rule.window)
    return TestClock.adjust(Duration.millis((millis - (now % millis)) % millis))
  })

/** The Retry-After of a refused hit (and a failed test if it was accepted). */
const refusal = <R>(hit: Effect.Effect<void, RateLimited, R>) =>
  Effect.map(Effect.flip(hit), (error) => error.retryAfterSeconds)

/** The limiter of a second node on the same database. */
const otherNode = Effect.gen(function*() {
  const { url } = yield* Database
  return Context.get(yield* Layer.build(node(url)), RateLimiter)
})

describe("RateLimiter", () => {
  layer(Env)("on PostgreSQL", (it) => {
    it.effect("accepts hits up to the limit", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const login = rule(3, "15 minutes")
        yield* limiter.consume(login, "ada@example.com")
        yield* limiter.consume(login, "ada@example.com")
        expect(yield* limiter.peek(login, "ada@example.com")).toBe(false)
        yield* limiter.consume(login, "ada@example.com")
        expect(yield* limiter.peek(login, "ada@example.com")).toBe(true)
        // Another key has a count of its own.
        yield* limiter.consume(login, "grace@example.com")
      }))

    it.effect("refuses the hit past the limit, with the seconds until one is accepted again", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const login = rule(5, "1 minute")
        yield* startOfWindow(login)
        yield* Effect.repeatN(limiter.consume(login, "203.0.113.7"), 4)
        // Six hits at 0s: in the next window 6 × (1 − f) + 1 ≤ 5 from f = 1/3, i.e. at 80s.
        expect(yield* refusal(limiter.consume(login, "203.0.113.7"))).toBe(80)
        yield* TestClock.adjust("79 seconds")
        expect(yield* limiter.peek(login, "203.0.113.7")).toBe(true)
        yield* TestClock.adjust("1 second")
        expect(yield* limiter.peek(login, "203.0.113.7")).toBe(false)
        yield* limiter.consume(login, "203.0.113.7")
      }))

    it.effect("answers a Retry-After of at least one second", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const burst = rule(3, "2 seconds")
        yield* startOfWindow(burst)
        yield* Effect.repeatN(limiter.consume(burst, "k").pipe(Effect.ignore), 9)
        // At 79% of the next window the ten hits still weigh 2.1: room again at 90%, 0.2 s away.
        yield* TestClock.adjust("3580 millis")
        expect(yield* refusal(limiter.consume(burst, "k"))).toBe(1)
      }))

    it.scoped("two nodes share one count", () =>
      Effect.gen(function*() {
        const a = yield* RateLimiter
        const b = yield* otherNode
        const login = rule(5, "15 minutes")
        yield* Effect.repeatN(a.consume(login, "ada@example.com"), 2)
        yield* Effect.repeatN(b.consume(login, "ada@example.com"), 1)
        expect(yield* refusal(b.consume(login, "ada@example.com"))).toBeGreaterThan(0)
        expect(yield* a.peek(login, "ada@example.com")).toBe(true)
        yield* a.reset(login, "ada@example.com")
        expect(yield* b.peek(login, "ada@example.com")).toBe(false)
      }))

    it.effect("reset clears a key's count and only that key's", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const login = rule(2, "15 minutes")
        yield* Effect.repeatN(limiter.consume(login, "ada@example.com"), 1)
        yield* Effect.repeatN(limiter.consume(login, "grace@example.com"), 1)
        expect(yield* refusal(limiter.consume(login, "ada@example.com"))).toBeGreaterThan(0)
        yield* limiter.reset(login, "ada@example.com")
        yield* limiter.consume(login, "ada@example.com")
        expect(yield* limiter.peek(login, "grace@example.com")).toBe(true)
      }))

    it.effect("refuseWhenOver counts nothing, so a shut lock opens about a window later however hard it is hit", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const lock = rule(5, "1 minute")
        yield* startOfWindow(lock)
        // Under the limit it lets the attempt through and counts nothing.
        yield* Effect.repeatN(limiter.refuseWhenOver(lock, "ada@example.com"), 9)
        yield* Effect.repeatN(limiter.consume(lock, "ada@example.com"), 4)
        // Five failures at 0s: in the next window 5 × (1 − f) + 1 ≤ 5 from f = 1/5, at 72s; the answer says
        // at most the window.
        expect(yield* refusal(limiter.refuseWhenOver(lock, "ada@example.com"))).toBe(60)
        yield* Effect.repeatN(limiter.refuseWhenOver(lock, "ada@example.com").pipe(Effect.ignore), 99)
        yield* TestClock.adjust("30 seconds")
        expect(yield* refusal(limiter.refuseWhenOver(lock, "ada@example.com"))).toBe(42)
        yield* TestClock.adjust("42 seconds")
        yield* limiter.refuseWhenOver(lock, "ada@example.com")
        // `consume`, by contrast, counts what it refuses: hammering keeps that door shut.
        const counted = rule(5, "1 minute")
        yield* startOfWindow(counted)
        yield* Effect.repeatN(limiter.consume(counted, "ada@example.com").pipe(Effect.ignore), 99)
        expect(yield* refusal(limiter.consume(counted, "ada@example.com"))).toBeGreaterThan(100)
      }))

    it.effect("counts expire with their windows", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const mfa = rule(2, "2 seconds")
        yield* startOfWindow(mfa)
        yield* Effect.repeatN(limiter.consume(mfa, "ada"), 1)
        expect(yield* refusal(limiter.consume(mfa, "ada"))).toBeGreaterThan(0)
        // Halfway through the next window, half of the previous one's three hits still count.
        yield* TestClock.adjust("3 seconds")
        expect(yield* limiter.peek(mfa, "ada")).toBe(true)
        // Two windows on, nothing is left.
        yield* TestClock.adjust("1 second")
        yield* Effect.repeatN(limiter.consume(mfa, "ada"), 1)
      }))

    it.effect("stores the key only as a hash", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        const login = rule(10, "15 minutes")
        yield* limiter.consume(login, "ada@example.com")
        const rows = yield* sql<
          { bucket: string }
        >`SELECT bucket FROM rate_limit_counters WHERE bucket LIKE ${`${login.name}:%`}`
        expect(rows.map((row) => row.bucket)).toEqual([bucketOf(login, "ada@example.com")])
        expect(rows[0]!.bucket).toMatch(new RegExp(`^${login.name.replace(".", "\\.")}:[0-9a-f]{32}$`))
        expect(rows[0]!.bucket).not.toContain("ada")
      }))

    it.scoped("sweeps old windows in the background", () =>
      Effect.gen(function*() {
        const limiter = yield* otherNode
        const sql = yield* SqlClient.SqlClient
        const leads = rule(10, "1 minute")
        yield* limiter.consume(leads, "old")
        yield* TestClock.adjust("10 minutes")
        yield* limiter.consume(leads, "new")
        const windowsOf = (key: string) =>
          sql<{ n: number }>`SELECT count(*)::int AS n FROM rate_limit_counters WHERE bucket = ${bucketOf(leads, key)}`
            .pipe(Effect.map(([row]) => row!.n))
        // The sweep runs beside the caller: wait for it on the real clock.
        yield* TestServices.provideLive(
          windowsOf("old").pipe(
            Effect.repeat({ until: (n) => n === 0, schedule: Schedule.spaced("20 millis") }),
            Effect.timeout("5 seconds")
          )
        )
        expect(yield* windowsOf("new")).toBe(1)
      }))
  })

  layer(EmbeddedEnv)("on the embedded database", (it) => {
    it.effect("counts, refuses and resets", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const login = rule(2, "1 minute")
        yield* startOfWindow(login)
        yield* Effect.repeatN(limiter.consume(login, "ada@example.com"), 1)
        // Three hits at 0s: in the next window 3 × (1 − f) + 1 ≤ 2 from f = 2/3, i.e. at 100s.
        expect(yield* refusal(limiter.consume(login, "ada@example.com"))).toBe(100)
        expect(yield* limiter.peek(login, "ada@example.com")).toBe(true)
        yield* limiter.reset(login, "ada@example.com")
        expect(yield* limiter.peek(login, "ada@example.com")).toBe(false)
      }))
  })
})
