/**
 * The audit log against the real PostgreSQL (and once on the embedded one):
 * records list newest first, chain per workspace under concurrent appends,
 * and a record changed behind the application's back is found.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, DateTime, Effect, Layer, Schema, String, TestClock } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { AuditRecord } from "../../../src/domain/identity/AuditRecord.js"
import { ApiTokenId, UserId, WorkspaceId } from "../../../src/domain/identity/Ids.js"
import * as PgliteClient from "../../../src/persistence/PgliteClient.js"
import { MigratorLive, SqlLive } from "../../../src/persistence/Sql.js"
import { type AuditEntry, AuditLog, chainHash, redact } from "../../../src/services/AuditLog.js"
import { freshDatabase, withAdmin } from "../../support/TestDatabase.js"
import { configFrom } from "../../support/TestServer.js"

class Database extends Context.Tag("test/AuditLog/Database")<Database, { readonly url: string }>() {}

const ServerEnv = Layer.unwrapEffect(
  Effect.map(Database, ({ url }) =>
    AuditLog.Default.pipe(
      Layer.provideMerge(SqlLive),
      Layer.provide(Layer.setConfigProvider(configFrom({ DATABASE_URL: url })))
    ))
).pipe(Layer.provideMerge(Layer.scoped(Database, freshDatabase)))

const EmbeddedEnv = Layer.merge(AuditLog.Default, MigratorLive).pipe(
  Layer.provideMerge(PgliteClient.layer({
    dataDir: Fs.mkdtempSync(Path.join(Os.tmpdir(), "parley-auditlog-")),
    transformQueryNames: String.camelToSnake,
    transformResultNames: String.snakeToCamel
  }))
)

const newWorkspace = () => WorkspaceId.make(Crypto.randomUUID())
const ada = UserId.make(Crypto.randomUUID())
const ciToken = ApiTokenId.make(Crypto.randomUUID())

const entry = (workspaceId: WorkspaceId, change: Partial<AuditEntry> = {}): AuditEntry => ({
  workspaceId,
  actor: { kind: "user", userId: ada },
  actorDisplay: "Ada Lovelace",
  action: "member.role.changed",
  resourceType: "member",
  resourceId: "0190c7a0-0000-7000-8000-000000000001",
  summary: { before: { role: "viewer" }, after: { role: "editor" } },
  traceId: "0af7651916cd43dd8448eb211c80319c",
  ipAddress: "203.0.113.7",
  userAgent: "vitest",
  ...change
})

/** Three records a second apart: a role change by Ada, a token created by Ada, a sweep by Parley. */
const appendThree = (workspaceId: WorkspaceId) =>
  Effect.gen(function*() {
    const log = yield* AuditLog
    yield* log.append(entry(workspaceId))
    yield* TestClock.adjust("1 second")
    yield* log.append(entry(workspaceId, {
      actor: { kind: "api-token", tokenId: ciToken },
      actorDisplay: "ci",
      action: "api-token.created",
      resourceType: "api-token",
      resourceId: "0190c7a0-0000-7000-8000-000000000002",
      summary: { before: null, after: { name: "deploy" } }
    }))
    yield* TestClock.adjust("1 second")
    yield* log.append(entry(workspaceId, {
      actor: { kind: "system" },
      actorDisplay: "Parley",
      action: "member.removed",
      resourceId: null,
      summary: { before: { role: "editor" }, after: null },
      traceId: null,
      ipAddress: null,
      userAgent: null
    }))
  })

/** The sequences of a workspace's records that match `query`, newest first. */
const sequences = (workspaceId: WorkspaceId, query: Parameters<AuditLog["list"]>[1] = {}) =>
  Effect.flatMap(AuditLog, (log) => log.list(workspaceId, query)).pipe(
    Effect.map((page) => page.items.map((record) => record.sequence))
  )

/** Run statements on the test database as the superuser, as an operator (or an intruder) could. */
const asSuperuser = (statements: ReadonlyArray<string>) =>
  Effect.flatMap(Database, ({ url }) =>
    Effect.promise(() =>
      withAdmin(async (client) => {
        for (const statement of statements) await client.query(statement)
      }, url)
    ))

/** Change the log with its guard lowered for the length of one transaction. */
const tamper = (statement: string) =>
  asSuperuser([
    "BEGIN",
    "ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only",
    statement,
    "ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only",
    "COMMIT"
  ])

/** Append, list and verify: run on both databases. */
const appendListVerify = Effect.gen(function*() {
  const log = yield* AuditLog
  const workspaceId = newWorkspace()
  yield* appendThree(workspaceId)

  const page = yield* log.list(workspaceId, {})
  expect(page.total).toBe(3)
  expect(page.items.map((record) => record.sequence)).toEqual([3, 2, 1])
  expect(page.items.every((record) => record instanceof AuditRecord)).toBe(true)
  const [third, second, first] = page.items
  expect(first!.prevHash).toBeNull()
  expect(second!.prevHash).toBe(first!.hash)
  expect(third!.prevHash).toBe(second!.hash)
  expect(second!.actor).toEqual({ kind: "api-token", tokenId: ciToken })
  expect(first!.summary).toEqual({ before: { role: "viewer" }, after: { role: "editor" } })
  expect(DateTime.toEpochMillis(third!.occurredAt) - DateTime.toEpochMillis(first!.occurredAt)).toBe(2000)
  // What the API sends.
  const json = Schema.encodeSync(AuditRecord.json)(first!)
  expect(json).toMatchObject({ sequence: 1, action: "member.role.changed", prevHash: null, hash: first!.hash })
  // Anyone can recompute a hash from what the API sends.
  const { hash, prevHash, ...content } = json
  expect(hash).toBe(chainHash(prevHash, content))

  expect(yield* log.verifyChain(workspaceId)).toEqual({ ok: true, records: 3 })
})

describe("AuditLog", () => {
  layer(ServerEnv)("on PostgreSQL", (it) => {
    it.effect("appends, lists newest first and verifies the chain", () => appendListVerify)

    it.effect("filters by actor, action, resource and time, and pages", () =>
      Effect.gen(function*() {
        const workspaceId = newWorkspace()
        const start = yield* DateTime.now
        yield* appendThree(workspaceId)
        expect(yield* sequences(workspaceId, { actor: ada })).toEqual([1])
        expect(yield* sequences(workspaceId, { actor: ciToken })).toEqual([2])
        expect(yield* sequences(workspaceId, { actor: "system" })).toEqual([3])
        expect(yield* sequences(workspaceId, { action: "member.role.changed" })).toEqual([1])
        expect(yield* sequences(workspaceId, { action: "member.*" })).toEqual([3, 1])
        expect(yield* sequences(workspaceId, { action: "member" })).toEqual([])
        expect(yield* sequences(workspaceId, { resourceType: "api-token" })).toEqual([2])
        expect(yield* sequences(workspaceId, { resourceId: "0190c7a0-0000-7000-8000-000000000001" })).toEqual([1])
        const second = DateTime.add(start, { seconds: 1 })
        expect(yield* sequences(workspaceId, { from: second })).toEqual([3, 2])
        expect(yield* sequences(workspaceId, { to: second })).toEqual([1])
        expect(yield* sequences(workspaceId, { from: second, to: DateTime.add(second, { seconds: 1 }) })).toEqual([2])

        const log = yield* AuditLog
        const firstPage = yield* log.list(workspaceId, { limit: 2 })
        expect(firstPage).toMatchObject({ total: 3, limit: 2, offset: 0 })
        expect(firstPage.items.map((record) => record.sequence)).toEqual([3, 2])
        const lastPage = yield* log.list(workspaceId, { limit: 2, offset: 2 })
        expect(lastPage).toMatchObject({ total: 3, limit: 2, offset: 2 })
        expect(lastPage.items.map((record) => record.sequence)).toEqual([1])
        const filtered = yield* log.list(workspaceId, { action: "member.*", limit: 1 })
        expect(filtered.total).toBe(2)
        // Another workspace's records are never seen.
        expect((yield* log.list(newWorkspace(), {})).total).toBe(0)
      }))

    it.effect("numbers concurrent appends to one workspace 1..n without gaps", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const workspaceId = newWorkspace()
        yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => log.append(entry(workspaceId, { resourceId: `member-${i}` })),
          { concurrency: "unbounded", discard: true }
        )
        expect((yield* sequences(workspaceId, { limit: 100 })).reverse()).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1)
        )
        expect(yield* log.verifyChain(workspaceId)).toEqual({ ok: true, records: 20 })
      }))

    it.effect("keeps one chain per workspace", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const [a, b] = [newWorkspace(), newWorkspace()]
        yield* Effect.forEach(
          [a, b, a, b, a],
          (workspaceId) => log.append(entry(workspaceId)),
          { concurrency: "unbounded", discard: true }
        )
        // An account event lands in every workspace of the account.
        yield* log.appendMany([b, a], {
          ...entry(a, { action: "auth.login.succeeded", resourceType: "session", resourceId: null }),
          summary: { before: null, after: null }
        })
        expect(yield* sequences(a)).toEqual([4, 3, 2, 1])
        expect(yield* sequences(b)).toEqual([3, 2, 1])
        const [lastOfA] = (yield* log.list(a, { limit: 1 })).items
        const [lastOfB] = (yield* log.list(b, { limit: 1 })).items
        expect([lastOfA!.action, lastOfB!.action]).toEqual(["auth.login.succeeded", "auth.login.succeeded"])
        expect(lastOfA!.id).not.toBe(lastOfB!.id)
        expect(yield* log.verifyChain(a)).toEqual({ ok: true, records: 4 })
        expect(yield* log.verifyChain(b)).toEqual({ ok: true, records: 3 })
      }))

    it.effect("commits with the caller's transaction, and rolls back with it", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const sql = yield* SqlClient.SqlClient
        const workspaceId = newWorkspace()
        yield* sql.withTransaction(Effect.zipRight(log.append(entry(workspaceId)), Effect.fail("write refused"))).pipe(
          Effect.ignore
        )
        expect(yield* sequences(workspaceId)).toEqual([])
        yield* sql.withTransaction(log.append(entry(workspaceId)))
        expect(yield* sequences(workspaceId)).toEqual([1])
        expect(yield* log.verifyChain(workspaceId)).toEqual({ ok: true, records: 1 })
      }))

    it.effect("finds a record changed behind the application's back", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const workspaceId = newWorkspace()
        yield* appendThree(workspaceId)
        yield* tamper(
          `UPDATE audit_log SET action = 'member.added' WHERE workspace_id = '${workspaceId}' AND sequence = 2`
        )
        expect(yield* log.verifyChain(workspaceId)).toEqual({
          ok: false,
          brokenAt: 2,
          reason: "hash does not match the record's content"
        })
      }))

    it.effect("finds a removed record and a forged link", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const [gap, forged] = [newWorkspace(), newWorkspace()]
        yield* appendThree(gap)
        yield* appendThree(forged)
        yield* tamper(`DELETE FROM audit_log WHERE workspace_id = '${gap}' AND sequence = 2`)
        expect(yield* log.verifyChain(gap)).toEqual({ ok: false, brokenAt: 3, reason: "sequence 2 is missing" })
        yield* tamper(`UPDATE audit_log SET prev_hash = NULL WHERE workspace_id = '${forged}' AND sequence = 3`)
        expect(yield* log.verifyChain(forged)).toMatchObject({ ok: false, brokenAt: 3 })
      }))

    it.effect("refuses UPDATE, DELETE and TRUNCATE through the application's client", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const workspaceId = newWorkspace()
        yield* appendThree(workspaceId)
        for (
          const statement of [
            sql`UPDATE audit_log SET action = 'member.added' WHERE workspace_id = ${workspaceId}`,
            sql`DELETE FROM audit_log WHERE workspace_id = ${workspaceId}`,
            sql`TRUNCATE audit_log`
          ]
        ) {
          const error = yield* Effect.flip(statement)
          expect(error._tag).toBe("SqlError")
          expect(`${(error.cause as Error).message}`).toContain("append-only")
        }
        expect(yield* sequences(workspaceId)).toEqual([3, 2, 1])
      }))

    it.effect("stores secrets redacted", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const sql = yield* SqlClient.SqlClient
        const workspaceId = newWorkspace()
        yield* log.append(entry(workspaceId, {
          action: "user.password.changed",
          resourceType: "user",
          summary: {
            before: { password: "hunter2" },
            after: { password: "correct horse", name: "Ada", mfa: { totpSecret: "JBSWY3DP", recoveryCodes: ["a-b"] } }
          }
        }))
        const [record] = (yield* log.list(workspaceId, {})).items
        expect(record!.summary).toEqual({
          before: { password: "[redacted]" },
          after: { password: "[redacted]", name: "Ada", mfa: { totpSecret: "[redacted]", recoveryCodes: "[redacted]" } }
        })
        const [raw] = yield* sql<
          { summary: string }
        >`SELECT summary::text FROM audit_log WHERE workspace_id = ${workspaceId}`
        expect(raw!.summary).not.toMatch(/hunter2|correct horse|JBSWY3DP|a-b/)
        expect(yield* log.verifyChain(workspaceId)).toEqual({ ok: true, records: 1 })
      }))
  })

  layer(EmbeddedEnv)("on the embedded database", (it) => {
    it.effect("appends, lists newest first and verifies the chain", () => appendListVerify)

    it.effect("numbers concurrent appends without gaps", () =>
      Effect.gen(function*() {
        const log = yield* AuditLog
        const workspaceId = newWorkspace()
        yield* Effect.forEach(Array.from({ length: 10 }), () => log.append(entry(workspaceId)), {
          concurrency: "unbounded",
          discard: true
        })
        expect(yield* log.verifyChain(workspaceId)).toEqual({ ok: true, records: 10 })
      }))
  })
})

describe("redact", () => {
  it("masks the values of secret-looking keys at any depth", () => {
    expect(redact({
      name: "deploy",
      apiToken: "cdp_123",
      nested: [{ passwordHash: "$argon2id$", kept: 1 }],
      CODE: "123456",
      when: null
    })).toEqual({
      name: "deploy",
      apiToken: "[redacted]",
      nested: [{ passwordHash: "[redacted]", kept: 1 }],
      CODE: "[redacted]",
      when: null
    })
    expect(redact(null)).toBeNull()
    expect(redact("password")).toBe("password")
  })
})
