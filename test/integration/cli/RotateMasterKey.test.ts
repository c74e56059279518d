/**
 * Master-key rotation without downtime, as an operator runs it, and the
 * vault's secrets scan. A node on the old key stores secrets (created,
 * rotated, read server-side) and a TOTP seed. Then, with the node rolled to
 * the new key (the old one accepted), `parley secrets rotate-master-key` runs
 * in its own process while the node keeps serving reads and writes of
 * secrets: none fails. The command moved every row, a second run does
 * nothing, and a run with a key that opens nothing refuses before writing.
 * Restarted with only the new key, the node reads every secret and the TOTP
 * user still signs in. No value ever appears in any table, log line, command
 * output or answer.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Redacted, Ref, Schema } from "effect"
import * as Crypto from "node:crypto"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { ChainCreate } from "../../../src/domain/workflows/Chain.js"
import type { SecretId, SecretName } from "../../../src/domain/workspace/Ids.js"
import { MasterKey } from "../../../src/services/MasterKey.js"
import { SecretValues } from "../../../src/services/workspace/SecretValues.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { challengePayload, enableMfa, logInTyped } from "../../support/IdentityCalls.js"
import { clientOf } from "../../support/Members.js"
import { runParley } from "../../support/ParleyProcess.js"
import { freshDatabase } from "../../support/TestDatabase.js"
import { capturingLogger, type LogEntry, testServer } from "../../support/TestServer.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"
import { typedCaller } from "../../support/TypedCaller.js"
import { freshValue, secretCreate, secretRotate, vaultPorts } from "../../support/Vault.js"

const newKey = () => Crypto.randomBytes(32).toString("base64")
const idOf = (key: string) =>
  Effect.map(Effect.provide(MasterKey, MasterKey.layerFromBytes(Buffer.from(key, "base64"))), (ring) => ring.current.id)

/** How many secrets the old node stores. */
const SECRETS = 120

/** What the command printed as its report (the JSON object at the end of its output). */
const reportOf = (output: string) => JSON.parse(output.slice(output.indexOf("{\n")))

describe("parley secrets rotate-master-key", () => {
  it.scopedLive(
    "moves every secret to the new key while a node serves, and a node with only the new key reads them all",
    () =>
      Effect.gen(function*() {
        const { url } = yield* freshDatabase
        const [oldKey, nextKey, strangerKey] = [newKey(), newKey(), newKey()]
        const nextId = yield* idOf(nextKey)
        const logs: Array<LogEntry> = []
        const answers: Array<string> = []
        const outputs: Array<string> = []
        const everValue: Array<string> = []
        const current = new Map<SecretName, { id: SecretId; value: string }>()
        /** A node on the database with these keys, and the vault's ports over its database with the same keys. */
        const node = (keys: Record<string, string>) =>
          vaultPorts(keys).pipe(Layer.provideMerge(testServer({ DATABASE_URL: url, ...keys }, capturingLogger(logs))))
        const command = (keys: Record<string, string>) =>
          Effect.promise(() => runParley(["secrets", "rotate-master-key"], { DATABASE_URL: url, ...keys })).pipe(
            Effect.tap(({ output }) => Effect.sync(() => outputs.push(output)))
          )
        const readAll = (owner: TestAccount) =>
          Effect.gen(function*() {
            const values = yield* SecretValues
            for (const [name, expected] of current) {
              const value = yield* values.reveal({
                workspaceId: owner.workspaceId as WorkspaceId,
                name,
                usedBy: { kind: "workspace-tool", id: "rotation-test" },
                actor: { kind: "system" }
              })
              expect(Redacted.value(value), name).toBe(expected.value)
            }
          })
        const listed = (owner: TestAccount) =>
          exchange(as(HttpClientRequest.get("/v1/secrets?limit=100"), owner)).pipe(
            Effect.tap((answer) => Effect.sync(() => answers.push(answer.text))),
            Effect.tap((answer) => expect(answer.status).toBe(200))
          )

        // 1. A node on the old key: secrets created, some rotated, read server-side; a TOTP seed.
        const { chainSecret, mfa, owner } = yield* Effect.gen(function*() {
          const owner = yield* signUp()
          const mfa = yield* enableMfa(owner)
          const client = yield* clientOf(owner)
          yield* Effect.forEach(Array.from({ length: SECRETS }, (_, index) => index), (index) =>
            Effect.gen(function*() {
              const name = `KEY_${index}` as SecretName
              const value = freshValue(`old${index}`)
              everValue.push(value)
              const created = yield* client.secrets.create({ payload: secretCreate(name, value, `key ${index}`) })
              answers.push(JSON.stringify(created))
              current.set(name, { id: created.id, value })
              if (index % 4 === 0) {
                const next = freshValue(`rotated${index}`)
                everValue.push(next)
                answers.push(JSON.stringify(
                  yield* client.secrets.rotate({ path: { secret_id: created.id }, payload: secretRotate(next) })
                ))
                current.set(name, { id: created.id, value: next })
              }
            }), { concurrency: 8, discard: true })
          yield* readAll(owner)
          yield* listed(owner)
          // A chain's signing secret is sealed with the master key too (shown once, here only).
          const chain = yield* client.chains.create({
            payload: Schema.decodeUnknownSync(ChainCreate)({ slug: `rotation-${process.pid}`, name: "Rotation" })
          })
          return { owner, mfa, chainSecret: chain.ingressSecret }
        }).pipe(Effect.provide(node({ PARLEY_MASTER_KEY: oldKey })))

        // 2. The node rolled to the new key, the old one accepted; the command runs while it serves.
        const rolled = { PARLEY_MASTER_KEY: nextKey, PARLEY_MASTER_KEY_PREVIOUS: oldKey }
        const { rounds, run } = yield* Effect.gen(function*() {
          const client = yield* clientOf(owner)
          const done = yield* Ref.make(false)
          const traffic = yield* Effect.gen(function*() {
            let rounds = 0
            while (!(yield* Ref.get(done))) {
              yield* readAll(owner)
              const [name, entry] = [...current][rounds % current.size]!
              const next = freshValue(`during${rounds}`)
              everValue.push(next)
              answers.push(JSON.stringify(
                yield* client.secrets.rotate({ path: { secret_id: entry.id }, payload: secretRotate(next) })
              ))
              current.set(name, { id: entry.id, value: next })
              const added = `DURING_${rounds}` as SecretName
              const value = freshValue(`added${rounds}`)
              everValue.push(value)
              current.set(added, {
                id: (yield* client.secrets.create({ payload: secretCreate(added, value) })).id,
                value
              })
              yield* listed(owner)
              rounds++
            }
            return rounds
          }).pipe(Effect.fork)
          const run = yield* command(rolled)
          yield* Ref.set(done, true)
          const rounds = yield* Fiber.join(traffic)
          yield* readAll(owner)
          return { rounds, run }
        }).pipe(Effect.provide(node(rolled)))
        expect(run.code, run.output).toBe(0)
        const report = reportOf(run.output)
        expect(report.masterKeyId).toBe(nextId)
        // Each round rotated one secret to the new key, which the command then had no need to move.
        expect(report.rewrapped + report.changedMeanwhile).toBeGreaterThanOrEqual(SECRETS - rounds)
        expect(report.rewrapped).toBeGreaterThan(0)
        expect(report.resealed["users.totp_secret"]).toBe(1)
        expect(report.resealed["signing_keys.private_key"]).toBeGreaterThanOrEqual(1)
        expect(report.resealed["workflow_chains.ingress_secret"]).toBe(1)
        expect(rounds).toBeGreaterThan(0)

        // A second run finds nothing to do; a key that opens nothing is refused before any write.
        const again = yield* command(rolled)
        expect(again.code, again.output).toBe(0)
        expect(reportOf(again.output)).toEqual({
          masterKeyId: nextId,
          rewrapped: 0,
          resealed: {
            "users.totp_secret": 0,
            "users.totp_pending_secret": 0,
            "signing_keys.private_key": 0,
            "workflow_chains.ingress_secret": 0
          },
          changedMeanwhile: 0
        })
        const refused = yield* command({ PARLEY_MASTER_KEY: strangerKey })
        expect(refused.code).toBe(1)
        expect(refused.output).toContain("refusing to rotate")
        expect(refused.output).toContain("PARLEY_MASTER_KEY_PREVIOUS")

        // 3. Restarted with only the new key: every secret reads, the TOTP user signs in, nothing leaked.
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const [moved] = yield* sql<{ others: number; total: number }>`SELECT
          count(*) FILTER (WHERE master_key_id <> ${nextId})::int AS others, count(*)::int AS total FROM secret_versions`
          expect(moved).toEqual({ others: 0, total: current.size })
          const sealed = yield* sql<
            { value: string }
          >`SELECT totp_secret AS value FROM users WHERE totp_secret IS NOT NULL
          UNION ALL SELECT private_key FROM signing_keys UNION ALL SELECT ingress_secret FROM workflow_chains`
          expect(sealed.every(({ value }) => value.startsWith(`v2.${nextId}.`))).toBe(true)
          yield* readAll(owner)
          yield* listed(owner)
          const login = yield* logInTyped(owner)
          if (login._tag !== "MfaRequired") return yield* Effect.dieMessage(`expected MfaRequired, got ${login._tag}`)
          const now = yield* settledNow
          const code = Math.floor(now / 30_000) > Math.floor(mfa.t0 / 30_000)
            ? yield* codeAt(mfa.secret, now)
            : yield* codeAt(mfa.secret, mfa.t0, 1)
          const anonymous = yield* typedCaller({ address: owner.address })
          const signedIn = yield* anonymous.mfa.challenge({ payload: challengePayload(login.challengeToken, code) })
          expect(signedIn._tag).toBe("SignedIn")

          // The scan: every column of every table, every log line, command output and answer.
          const tables = yield* sql<{ tableName: string }>`
          SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
          const dump: Array<string> = []
          for (const { tableName } of tables) {
            const rows = yield* sql.unsafe<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${tableName}" t`)
            dump.push(...rows.map((row) => `${tableName}: ${row.row}`))
          }
          expect(dump.some((line) => line.startsWith("secret_versions:"))).toBe(true)
          const everywhere = [...dump, JSON.stringify(logs), ...outputs, ...answers]
          const seed = Redacted.value(mfa.secret)
          // The chain's secret was answered once by design; it is nowhere in the database, the logs or the output.
          expect([...dump, JSON.stringify(logs), ...outputs].some((text) => text.includes(chainSecret.slice(6)))).toBe(
            false
          )
          const leaks = [...everValue, seed].filter((value) => everywhere.some((text) => text.includes(value)))
          expect(leaks).toEqual([])
          // The search can find what it looks for: the values' names are there.
          expect(everywhere.some((text) => text.includes("KEY_0"))).toBe(true)
          expect(everValue.length).toBeGreaterThan(SECRETS)
        }).pipe(Effect.provide(node({ PARLEY_MASTER_KEY: nextKey })))
      }),
    300_000
  )
})
