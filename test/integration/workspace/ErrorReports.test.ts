/**
 * UI error reports over HTTP against the real database: repeats of one error
 * merge under one fingerprint (whatever ids, numbers and trace ids they carry),
 * per workspace; each report is logged; a reporter past 30 a minute gets 429
 * with Retry-After; bad and hostile bodies are typed 400s; `parley errors
 * list` shows what was reported.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { DateTime, Effect, Schema } from "effect"
import { ErrorReportSubmission } from "../../../src/domain/workspace/ErrorReport.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange, postRaw } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { runParley } from "../../support/ParleyProcess.js"
import { adminUrl } from "../../support/TestDatabase.js"
import { capturingLogger, type LogEntry, testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

const entries: Array<LogEntry> = []

const report = (fields: Record<string, unknown> = {}) => ({
  errorName: "AssistantNotFound",
  message: "No Assistant 0193a4f2-7c1e-7b3a-9d2e-5f6a7b8c9d0e in workspace (attempt 3)",
  stack:
    "AssistantNotFound: No Assistant\n    at loadAssistant (https://app.example.com/assets/editor.js:12:345)\n    at main",
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  route: "GET /v1/agents/{agent_id}",
  status: 404,
  ...fields
})

const send = (account: TestAccount, body: Record<string, unknown>, workspaceId?: string) =>
  Effect.flatMap(
    clientOf(account, workspaceId),
    (client) => client.support.reportError({ payload: Schema.decodeUnknownSync(ErrorReportSubmission)(body) })
  )

const sendRaw = (account: TestAccount, body: string) => exchange(as(postRaw("/v1/support/error-report", body), account))

layer(testServer({}, capturingLogger(entries)), { excludeTestServices: true, timeout: 120_000 })(
  "error reports",
  (it) => {
    it.effect("repeats of one error merge under one fingerprint, per workspace, and each is logged", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const first = yield* send(owner, report())
        expect(first.occurrences).toBe(1)
        expect(first.fingerprint).toMatch(/^[0-9a-f]{64}$/)
        expect(first.firstSeenAt).toEqual(first.lastSeenAt)
        // Another id, another number, another trace: the same error.
        const again = yield* send(
          owner,
          report({
            message: "No Assistant 01938888-7c1e-7b3a-9d2e-5f6a7b8c9d0e in workspace (attempt 12)",
            traceId: "0af7651916cd43dd8448eb211c80319c",
            status: 404,
            context: { tab: "flow" }
          })
        )
        expect(again).toMatchObject({ reportId: first.reportId, fingerprint: first.fingerprint, occurrences: 2 })
        expect(again.firstSeenAt).toEqual(first.firstSeenAt)
        expect(DateTime.greaterThanOrEqualTo(again.lastSeenAt, first.lastSeenAt)).toBe(true)
        // Another message, another stack frame or another route: another error.
        const other = yield* send(owner, report({ message: "Flow failed to save" }))
        expect(other.fingerprint).not.toBe(first.fingerprint)
        expect(other.occurrences).toBe(1)
        expect((yield* send(owner, report({ route: "GET /v1/agents" }))).fingerprint).not.toBe(first.fingerprint)
        // Another workspace counts its own.
        const stranger = yield* signUp()
        const theirs = yield* send(stranger, report())
        expect(theirs).toMatchObject({ fingerprint: first.fingerprint, occurrences: 1 })
        expect(theirs.reportId).not.toBe(first.reportId)
        // The row keeps the newest details.
        const [row] = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql<{ traceId: string; occurrences: number; context: unknown }>`
            SELECT trace_id, occurrences, context FROM error_reports WHERE id = ${first.reportId}`
        ).pipe(Effect.orDie)
        expect(row).toEqual({ traceId: "0af7651916cd43dd8448eb211c80319c", occurrences: 2, context: { tab: "flow" } })
        const logged = entries.filter((entry) =>
          entry.message === "UI error reported" && entry.annotations["fingerprint"] === first.fingerprint
        )
        expect(logged.map((entry) => entry.annotations["occurrences"])).toEqual([1, 2, 1])
        expect(logged[1]).toMatchObject({
          level: "WARN",
          annotations: {
            workspaceId: owner.workspaceId,
            reportedTraceId: "0af7651916cd43dd8448eb211c80319c",
            status: 404
          }
        })
      }))

    it.effect("a viewer may report; a reporter past 30 a minute gets 429 with Retry-After, others do not", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        // The limiter estimates a sliding minute from fixed minute windows, so 30 reports that straddle a
        // minute's boundary are partly forgotten: a fresh reporter tries again when they did (once at most,
        // as 30 reports take far less than a minute).
        const minute = () => Math.floor(Date.now() / 60_000)
        let viewer = yield* join(owner, "viewer")
        for (let attempt = 1; attempt <= 2; attempt++) {
          const began = minute()
          for (let i = 0; i < 30; i++) {
            yield* send(viewer, report({ message: `Error number ${i}` }), owner.workspaceId)
          }
          if (minute() === began) break
          viewer = yield* join(owner, "viewer")
        }
        const refused = yield* exchange(as(
          postRaw("/v1/support/error-report", JSON.stringify(report())),
          { ...viewer, workspaceId: owner.workspaceId }
        ))
        expect(refused.status).toBe(429)
        expect(refused.json._tag).toBe("RateLimited")
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
        expect((yield* failureOf(send(viewer, report(), owner.workspaceId)))._tag).toBe("RateLimited")
        expect((yield* send(owner, report())).occurrences).toBe(1)
      }))

    it.effect("bad and hostile bodies are typed 400s and store nothing", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const cases: ReadonlyArray<readonly [string, string, number]> = [
          ["no message", JSON.stringify(report({ message: undefined })), 400],
          ["blank message", JSON.stringify(report({ message: "   " })), 400],
          ["long message", JSON.stringify(report({ message: "m".repeat(2001) })), 400],
          ["long stack", JSON.stringify(report({ stack: "s".repeat(16_385) })), 400],
          ["bad trace id", JSON.stringify(report({ traceId: "xyz" })), 400],
          ["status 700", JSON.stringify(report({ status: 700 })), 400],
          ["bad severity", JSON.stringify(report({ severity: "panic" })), 400],
          ["unknown field", JSON.stringify(report({ workspaceId: owner.workspaceId })), 400],
          ["fingerprint given", JSON.stringify(report({ fingerprint: "0".repeat(64) })), 400],
          ["nested context", JSON.stringify(report({ context: { a: { b: 1 } } })), 400],
          [
            "51 context keys",
            JSON.stringify(report({ context: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) })),
            400
          ],
          ["deep", JSON.stringify(report({ context: { a: [[[[[[[[[[1]]]]]]]]]] } })), 400],
          ["NUL", JSON.stringify(report({ message: "boom\u0000" })), 400],
          ["lone surrogate", JSON.stringify(report()).replace("No Assistant", "No \\udc00"), 400],
          ["a string", "\"boom\"", 400],
          ["huge", JSON.stringify(report({ stack: "s".repeat(3_000_000) })), 413]
        ]
        for (const [name, body, status] of cases) {
          const answer = yield* sendRaw(owner, body)
          expect(answer.status, name).toBe(status)
          expect(typeof answer.json._tag, name).toBe("string")
        }
        const [row] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ n: string }>`SELECT count(*)::text AS n FROM error_reports WHERE workspace_id = ${owner.workspaceId}`)
          .pipe(Effect.orDie)
        expect(row!.n).toBe("0")
        const anonymous = yield* exchange(postRaw("/v1/support/error-report", JSON.stringify(report())))
        expect(anonymous.status).toBe(401)
      }))

    it.effect("`parley errors list` shows the errors, most recently seen first, per workspace when asked", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const first = yield* send(owner, report({ message: "First error" }))
        yield* send(owner, report({ message: "Second error" }))
        yield* send(owner, report({ message: "First error" }))
        yield* send(yield* signUp(), report({ message: "Someone else's" }))
        const [db] = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ name: string }>`SELECT current_database() AS name`
        ).pipe(Effect.orDie)
        const url = new URL(adminUrl)
        url.pathname = `/${db!.name}`
        const listed = yield* Effect.promise(() =>
          runParley(["errors", "list", "--workspace", owner.workspaceId, "--limit", "5"], {
            DATABASE_URL: url.toString(),
            PARLEY_LOG_LEVEL: "Error"
          })
        )
        expect(listed.code, listed.output).toBe(0)
        const lines = listed.output.trim().split("\n").map((line) => JSON.parse(line))
        expect(lines.map((line) => [line.message, line.occurrences])).toEqual([["First error", 2], ["Second error", 1]])
        expect(lines[0]).toMatchObject({
          id: first.reportId,
          workspaceId: owner.workspaceId,
          fingerprint: first.fingerprint,
          route: "GET /v1/agents/{agent_id}",
          status: 404,
          reportedBy: { kind: "user", userId: owner.userId }
        })
        const limited = yield* Effect.promise(() =>
          runParley(["errors", "list", "--limit", "1"], { DATABASE_URL: url.toString(), PARLEY_LOG_LEVEL: "Error" })
        )
        expect(limited.output.trim().split("\n")).toHaveLength(1)
        const bad = yield* Effect.promise(() =>
          runParley(["errors", "list", "--workspace", "not-a-uuid"], { DATABASE_URL: url.toString() })
        )
        expect(bad.code).not.toBe(0)
      }))
  }
)
