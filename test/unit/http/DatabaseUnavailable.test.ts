/**
 * A database that cannot answer for now (a statement its time-out cancelled, a
 * dropped connection) is answered 503 `NotReady` with `Retry-After`, never 500;
 * a real fault still answers 500 with its trace id, and an error that merely
 * carries a SQLSTATE-like code outside the SQL client is not mistaken for one.
 */
import { HttpServerRequest } from "@effect/platform"
import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { databaseUnavailable } from "../../../src/http/middleware/DatabaseUnavailable.js"
import { errorResponses } from "../../../src/http/middleware/ErrorResponses.js"

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "ERROR" })

const answer = (failure: unknown) =>
  errorResponses({ allowedMethods: () => [], maxBodyBytes: () => 1024 })(Effect.die(failure)).pipe(
    Effect.provideService(
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(new Request("http://localhost/v1/agents"))
    ),
    // The server runs every request inside its span, whose trace id a 500 quotes.
    Effect.withSpan("request"),
    Effect.map((response) => ({
      status: response.status,
      retryAfter: response.headers["retry-after"],
      body: response.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(response.body.body)) : undefined
    }))
  )

describe("databaseUnavailable", () => {
  it("names the SQLSTATE of a cancelled statement, a refused connection, an exhausted server", () => {
    expect(
      databaseUnavailable(new SqlError({ cause: pgError("57014", "canceling statement due to statement timeout") }))
    )
      .toBe("SQLSTATE 57014")
    expect(databaseUnavailable(new SqlError({ cause: pgError("53300", "too many clients already") })))
      .toBe("SQLSTATE 53300")
    expect(databaseUnavailable(new SqlError({ cause: pgError("40001", "could not serialize access") })))
      .toBe("SQLSTATE 40001")
    expect(databaseUnavailable(new SqlError({ cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) })))
      .toBe("ECONNREFUSED")
    expect(databaseUnavailable(new SqlError({ cause: new Error("Connection terminated unexpectedly") })))
      .toBe("Connection terminated")
  })

  it("finds the SQL error inside a service's own wrapper", () => {
    const wrapped = { _tag: "PersistenceError", cause: new SqlError({ cause: pgError("57P01", "terminating") }) }
    expect(databaseUnavailable(wrapped)).toBe("SQLSTATE 57P01")
  })

  it("leaves faults of the request or the code alone", () => {
    expect(databaseUnavailable(new SqlError({ cause: pgError("23505", "duplicate key") }))).toBeUndefined()
    expect(databaseUnavailable(new SqlError({ cause: pgError("42P01", "relation does not exist") }))).toBeUndefined()
    expect(databaseUnavailable(Object.assign(new Error("tool"), { code: "ECONNREFUSED" }))).toBeUndefined()
    expect(databaseUnavailable(new Error("Connection terminated"))).toBeUndefined()
    expect(databaseUnavailable(undefined)).toBeUndefined()
  })

  it("stops on a cycle of causes", () => {
    const a: { _tag: string; cause?: unknown } = { _tag: "SqlError" }
    a.cause = a
    expect(databaseUnavailable(a)).toBeUndefined()
  })
})

describe("errorResponses", () => {
  it.effect("answers a cancelled statement 503 NotReady with Retry-After", () =>
    Effect.gen(function*() {
      const response = yield* answer(
        new SqlError({ cause: pgError("57014", "canceling statement due to statement timeout") })
      )
      expect(response.status).toBe(503)
      expect(response.retryAfter).toBe("1")
      expect(response.body._tag).toBe("NotReady")
      expect(response.body.checks).toEqual({ database: { ok: false, detail: "SQLSTATE 57014" } })
      expect(JSON.stringify(response.body)).not.toContain("canceling statement")
    }))

  it.effect("answers any other fault 500 InternalError", () =>
    Effect.gen(function*() {
      const response = yield* answer(new SqlError({ cause: pgError("42P01", "relation does not exist") }))
      expect(response.status).toBe(500)
      expect(response.body._tag).toBe("InternalError")
      expect(response.body.traceId).toMatch(/^[0-9a-f]{32}$/)
      expect(response.retryAfter).toBeUndefined()
    }))
})
