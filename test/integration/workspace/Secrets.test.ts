/**
 * The vault over HTTP against the real database: values go in and never come
 * out; names are unique per workspace; a rotation is a new version, refused
 * when stale and safe when two race; a secret in use is deleted only with
 * `force`; another workspace's ids are unknown; and bad text or oversize
 * values are a 400. Server-side reads (`SecretValues`) are counted and
 * audited. Raw requests only for bodies the typed client refuses to send.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import type { SecretId, SecretName } from "../../../src/domain/workspace/Ids.js"
import { MAX_SECRET_BYTES } from "../../../src/domain/workspace/Secret.js"
import { SecretRepo } from "../../../src/persistence/workspace/SecretRepo.js"
import { SecretReferences } from "../../../src/services/workspace/SecretReferences.js"
import { SecretValues } from "../../../src/services/workspace/SecretValues.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { auditQuery } from "../../support/IdentityCalls.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"
import { freshValue, secretCreate, secretRotate, vaultPorts } from "../../support/Vault.js"

let names = 0
const freshName = (label: string) => `${label.toUpperCase()}_${process.pid}_${++names}` as SecretName

const raw = (method: "POST" | "PUT", url: string, body: string, account: TestAccount) =>
  exchange(as(
    HttpClientRequest.make(method)(url).pipe(HttpClientRequest.bodyText(body, "application/json")),
    { token: account.token, address: account.address }
  ))

const use = (account: TestAccount, name: SecretName) => ({
  workspaceId: account.workspaceId as WorkspaceId,
  name,
  usedBy: { kind: "workspace-tool" as const, id: "0190c7a0-0000-7000-8000-0000000000aa", name: "CRM lookup" },
  actor: { kind: "system" as const }
})

layer(testServer(), { excludeTestServices: true })("the vault", (it) => {
  it.effect("stores a secret and answers its name, version, hint and author, never the value", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const name = freshName("crm")
      const value = freshValue("crm")
      const created = yield* client.secrets.create({ payload: secretCreate(name, value, "CRM key") })
      expect(created).toMatchObject({
        name,
        description: "CRM key",
        version: 1,
        maskedHint: `••••${value.slice(-4)}`,
        createdBy: { kind: "user", userId: owner.userId },
        updatedBy: { kind: "user", userId: owner.userId },
        lastUsedAt: null,
        lastUsedBy: null,
        useCount: 0
      })
      const short = yield* client.secrets.create({ payload: secretCreate(freshName("short"), "abc") })
      expect(short.maskedHint).toBeNull()
      const listed = yield* exchange(as(HttpClientRequest.get("/v1/secrets"), owner))
      expect(listed.status).toBe(200)
      expect(listed.json.total).toBe(2)
      expect(listed.text).not.toContain(value)
      expect(listed.text).not.toMatch(/ciphertext|wrapped|masterKey/i)
      const taken = yield* failureOf(client.secrets.create({ payload: secretCreate(name, "other") }))
      expect(taken).toMatchObject({ _tag: "SecretNameTaken", name })
      // The same name in another workspace is another secret.
      const other = yield* signUp()
      const elsewhere = yield* (yield* clientOf(other)).secrets.create({ payload: secretCreate(name, value) })
      expect(elsewhere.id).not.toBe(created.id)
    }))

  it.effect("lists a page, filtered by a part of the name, ignoring case", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      for (const label of ["alpha_one", "alpha_two", "beta", "alpha_three"]) {
        yield* client.secrets.create({ payload: secretCreate(label.toUpperCase(), freshValue(label)) })
      }
      const page = yield* client.secrets.list({ urlParams: { q: "alpha", limit: 2, offset: 1 } })
      expect(page.total).toBe(3)
      expect(page.items.map((item) => item.name)).toEqual(["ALPHA_THREE", "ALPHA_TWO"])
      expect((yield* client.secrets.list({ urlParams: { q: "%" } })).total).toBe(0)
      expect((yield* client.secrets.list({ urlParams: {} })).total).toBe(4)
    }))

  it.effect("a rotation is the next version; a stale expected version and another workspace's id are refused", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.secrets.create({ payload: secretCreate(freshName("rot"), freshValue("v1")) })
      const next = freshValue("v2")
      const rotated = yield* client.secrets.rotate({
        path: { secret_id: created.id },
        payload: secretRotate(next, 1)
      })
      expect(rotated).toMatchObject({ id: created.id, version: 2, maskedHint: `••••${next.slice(-4)}` })
      const stale = yield* failureOf(
        client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate(freshValue("v3"), 1) })
      )
      expect(stale).toMatchObject({ _tag: "SecretVersionConflict", expected: 1, actual: 2 })
      const stranger = yield* signUp()
      const strangerClient = yield* clientOf(stranger)
      expect(
        (yield* failureOf(
          strangerClient.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate("x") })
        ))._tag
      ).toBe("SecretNotFound")
      expect(
        (yield* failureOf(
          strangerClient.secrets.delete({ path: { secret_id: created.id }, urlParams: { force: false } })
        ))._tag
      ).toBe("SecretNotFound")
      expect((yield* strangerClient.secrets.list({ urlParams: {} })).total).toBe(0)
      const unknown = "0190c7a0-0000-7000-8000-00000000dead" as SecretId
      expect(
        (yield* failureOf(client.secrets.rotate({ path: { secret_id: unknown }, payload: secretRotate("x") })))._tag
      ).toBe("SecretNotFound")
      // The value in force is the rotated one.
      const revealed = yield* Effect.flatMap(SecretValues, (values) => values.reveal(use(owner, created.name)))
      expect(Redacted.value(revealed)).toBe(next)
    }).pipe(Effect.provide(vaultPorts())))

  it.effect("two rotations at once: with one expected version one wins and the other is a 409; without, both apply in turn", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.secrets.create({ payload: secretCreate(freshName("race"), freshValue("v1")) })
      const racers = Array.from({ length: 6 }, (_, index) => freshValue(`racer${index}`))
      const results = yield* Effect.forEach(
        racers,
        (value) =>
          Effect.either(client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate(value, 1) })),
        { concurrency: "unbounded" }
      )
      const won = results.filter((result) => result._tag === "Right")
      expect(won).toHaveLength(1)
      expect(results.filter((result) => result._tag === "Left").map((result) => result.left._tag)).toEqual(
        Array(5).fill("SecretVersionConflict")
      )
      const winner = racers[results.findIndex((result) => result._tag === "Right")]!
      const values = yield* SecretValues
      expect(Redacted.value(yield* values.reveal(use(owner, created.name)))).toBe(winner)

      const free = yield* Effect.forEach(
        racers,
        (value) => client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate(value) }),
        { concurrency: "unbounded" }
      )
      expect(free.map((secret) => secret.version).sort()).toEqual([3, 4, 5, 6, 7, 8])
      const last = racers[free.findIndex((secret) => secret.version === 8)]!
      expect(Redacted.value(yield* values.reveal(use(owner, created.name)))).toBe(last)
    }).pipe(Effect.provide(vaultPorts())))

  it.effect("a server-side read answers the value, counts the use and audits who, which resource and when", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const name = freshName("used")
      const value = freshValue("used")
      const created = yield* client.secrets.create({ payload: secretCreate(name, value) })
      const values = yield* SecretValues
      expect(Redacted.value(yield* values.reveal(use(owner, name)))).toBe(value)
      yield* values.reveal({ ...use(owner, name), actor: { kind: "user", userId: owner.userId as never } })
      const [listed] = (yield* client.secrets.list({ urlParams: { q: name } })).items
      expect(listed).toMatchObject({
        useCount: 2,
        lastUsedBy: { kind: "workspace-tool", id: "0190c7a0-0000-7000-8000-0000000000aa", name: "CRM lookup" }
      })
      expect(listed!.lastUsedAt).not.toBeNull()
      const audit = yield* client.audit.list({ urlParams: auditQuery({ action: "secret.used" }) })
      expect(audit.items.map((record) => record.resourceId)).toEqual([created.id, created.id])
      expect(audit.items.map((record) => record.actor.kind).sort()).toEqual(["system", "user"])
      expect(JSON.stringify(audit)).not.toContain(value)
      expect(audit.items[0]!.summary.after).toMatchObject({ name, version: 1, usedBy: { kind: "workspace-tool" } })
      const missing = yield* failureOf(values.reveal(use(owner, freshName("absent"))))
      expect(missing._tag).toBe("SecretReferenceMissing")
      const stranger = yield* signUp()
      expect((yield* failureOf(values.reveal(use(stranger, name))))._tag).toBe("SecretReferenceMissing")
      expect(yield* values.missing(owner.workspaceId as WorkspaceId, [name, "NOPE_X" as SecretName, name])).toEqual([
        "NOPE_X"
      ])
      const writes = yield* client.audit.list({ urlParams: auditQuery({ resourceId: created.id }) })
      expect(writes.items.map((record) => record.action)).toContain("secret.created")
    }).pipe(Effect.provide(vaultPorts())))

  it.effect("a master-key re-wrap never overwrites a version that was rotated or re-wrapped meanwhile", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const name = freshName("guard")
      const created = yield* client.secrets.create({ payload: secretCreate(name, freshValue("v1")) })
      const repo = yield* SecretRepo
      const versionOf = Effect.map(
        repo.wrappedByOthers("0000000000000000", undefined, 10_000),
        (rows) => rows.find((row) => row.secretId === created.id)!
      )
      const read = yield* versionOf
      const forged = { wrappedKey: new Uint8Array(60), masterKeyId: "ffffffffffffffff" }
      // Rotated meanwhile: the version read is gone.
      const next = freshValue("v2")
      yield* client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate(next) })
      expect(yield* repo.rewrap(read, read.masterKeyId, forged)).toBe(false)
      // Re-wrapped meanwhile: the row names another key than the one read.
      const current = yield* versionOf
      expect(yield* repo.rewrap(current, "0123456789abcdef", forged)).toBe(false)
      expect((yield* versionOf).masterKeyId).toBe(current.masterKeyId)
      const values = yield* SecretValues
      expect(Redacted.value(yield* values.reveal(use(owner, name)))).toBe(next)
    }).pipe(Effect.provide(Layer.merge(vaultPorts(), SecretRepo.Default))))

  it.effect("deleting a secret in use is a 409 naming its users, unless forced", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const name = freshName("inuse")
      const created = yield* client.secrets.create({ payload: secretCreate(name, freshValue("inuse")) })
      const references = yield* SecretReferences
      const workspaceId = owner.workspaceId as WorkspaceId
      const tool = { kind: "workspace-tool" as const, id: "0190c7a0-0000-7000-8000-0000000000bb", name: "Ticket" }
      const settings = { kind: "agent-llm-settings" as const, id: owner.workspaceId }
      yield* references.replace(workspaceId, tool, [name, name])
      yield* references.replace(workspaceId, settings, [name])
      expect(yield* references.usersOf(workspaceId, name)).toEqual([settings, tool])
      const inUse = yield* failureOf(
        client.secrets.delete({ path: { secret_id: created.id }, urlParams: { force: false } })
      )
      expect(inUse).toMatchObject({ _tag: "SecretInUse", secretId: created.id, usedBy: [settings, tool] })
      expect(inUse.message).toContain("Ticket")
      // A resource that stops naming it is no longer a user.
      yield* references.replace(workspaceId, settings, [])
      const stillTool = yield* failureOf(
        client.secrets.delete({ path: { secret_id: created.id }, urlParams: { force: false } })
      )
      expect(stillTool).toMatchObject({ _tag: "SecretInUse", usedBy: [tool] })
      yield* client.secrets.delete({ path: { secret_id: created.id }, urlParams: { force: true } })
      expect((yield* client.secrets.list({ urlParams: { q: name } })).total).toBe(0)
      expect(
        (yield* failureOf(client.secrets.delete({ path: { secret_id: created.id }, urlParams: { force: false } })))._tag
      ).toBe("SecretNotFound")
      const unused = yield* client.secrets.create({ payload: secretCreate(freshName("unused"), "v") })
      yield* client.secrets.delete({ path: { secret_id: unused.id }, urlParams: { force: false } })
    }).pipe(Effect.provide(vaultPorts())))

  it.effect("NUL bytes, broken Unicode, wrong types, unknown fields and oversize values are a 400; 16 KiB is fine", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.secrets.create({ payload: secretCreate(freshName("text"), "v") })
      const bodies: ReadonlyArray<readonly [string, string]> = [
        ["NUL in the name", `{"name":"A\\u0000B","value":"v"}`],
        ["NUL in the description", `{"name":"NUL_DESC","value":"v","description":"a\\u0000b"}`],
        ["NUL in the value", `{"name":"NUL_VALUE","value":"a\\u0000b"}`],
        ["a lone surrogate in the value", `{"name":"SURROGATE_VALUE","value":"a\\ud800b"}`],
        ["a lone surrogate in the description", `{"name":"SURROGATE_DESC","value":"v","description":"\\udc00"}`],
        ["a lower-case name", `{"name":"lower","value":"v"}`],
        ["an empty value", `{"name":"EMPTY","value":""}`],
        ["a number as value", `{"name":"NUMBER","value":12}`],
        ["an unknown field", `{"name":"EXTRA","value":"v","owner":"me"}`],
        ["a value over 16 KiB", JSON.stringify({ name: "BIG", value: "x".repeat(MAX_SECRET_BYTES + 1) })],
        [
          "a value over 16 KiB of UTF-8",
          JSON.stringify({ name: "BIG_UTF8", value: "é".repeat(MAX_SECRET_BYTES / 2 + 1) })
        ],
        [
          "a description over 500 characters",
          JSON.stringify({ name: "LONG", value: "v", description: "d".repeat(501) })
        ]
      ]
      for (const [label, body] of bodies) {
        const answer = yield* raw("POST", "/v1/secrets", body, owner)
        expect(answer.status, label).toBe(400)
      }
      const rotations = [
        `{"value":"a\\u0000b"}`,
        `{"value":"\\ud83d"}`,
        `{"value":"v","expectedVersion":0}`,
        `{"value":"v","expectedVersion":"1"}`,
        JSON.stringify({ value: "x".repeat(MAX_SECRET_BYTES + 1) })
      ]
      for (const body of rotations) {
        const answer = yield* raw("PUT", `/v1/secrets/${created.id}/value`, body, owner)
        expect(answer.status, body.slice(0, 40)).toBe(400)
      }
      expect((yield* client.secrets.list({ urlParams: {} })).total).toBe(1)
      const full = "é".repeat(MAX_SECRET_BYTES / 2)
      const big = yield* client.secrets.create({ payload: secretCreate(freshName("big"), full) })
      expect(big.maskedHint).toBe("••••éééé")
      const emoji = yield* client.secrets.create({ payload: secretCreate(freshName("emoji"), "🔑".repeat(20)) })
      expect(emoji.maskedHint).toBe("••••🔑🔑🔑🔑")
      const values = yield* SecretValues
      expect(Redacted.value(yield* values.reveal(use(owner, big.name)))).toBe(full)
      const bad = yield* exchange(as(HttpClientRequest.get("/v1/secrets?q=%00"), owner))
      expect(bad.status).toBe(400)
    }).pipe(Effect.provide(vaultPorts())))

  it.effect("only admins and owners read or write secrets; editors and viewers are refused", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* (yield* clientOf(owner)).secrets.create({
        payload: secretCreate(freshName("role"), freshValue("role"))
      })
      for (const role of ["viewer", "editor", "developer"] as const) {
        const member = yield* join(owner, role)
        const client = yield* clientOf(member, owner.workspaceId)
        expect((yield* failureOf(client.secrets.list({ urlParams: {} })))._tag, role).toBe("Forbidden")
        expect((yield* failureOf(client.secrets.create({ payload: secretCreate("NOPE", "v") })))._tag, role).toBe(
          "Forbidden"
        )
        expect(
          (yield* failureOf(client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate("v") })))
            ._tag,
          role
        ).toBe("Forbidden")
      }
      const admin = yield* join(owner, "admin")
      const adminClient = yield* clientOf(admin, owner.workspaceId)
      expect((yield* adminClient.secrets.list({ urlParams: {} })).total).toBe(1)
      const rotated = yield* adminClient.secrets.rotate({
        path: { secret_id: created.id },
        payload: secretRotate(freshValue("admin"))
      })
      expect(rotated.updatedBy).toEqual({ kind: "user", userId: admin.userId })
      const anonymous = yield* exchange(HttpClientRequest.get("/v1/secrets"))
      expect(anonymous.status).toBe(401)
    }))
})
