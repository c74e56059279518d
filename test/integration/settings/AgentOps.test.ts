/**
 * The agent-ops settings over HTTP against the real database: the defaults,
 * group-wise patches, the rules across fields as 400s naming the field, the
 * webhook's signing secret checked against the vault and recorded as a use
 * (the vault refuses to delete it), concurrent patches all applied, the audit
 * entry, roles and hostile bodies.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { AgentOpsSettingsPatch, defaultAgentOps } from "../../../src/domain/settings/AgentOpsSettings.js"
import { as, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { auditQuery } from "../../support/IdentityCalls.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"
import { freshValue, secretCreate } from "../../support/Vault.js"

const patchOf = (body: unknown) => Schema.decodeUnknownSync(AgentOpsSettingsPatch)(body)

const update = (account: TestAccount, body: unknown, workspaceId?: string) =>
  Effect.flatMap(
    clientOf(account, workspaceId),
    (client) => client.agentSettings.updateAgentOps({ payload: patchOf(body) })
  )

const read = (account: TestAccount, workspaceId?: string) =>
  Effect.flatMap(clientOf(account, workspaceId), (client) => client.agentSettings.getAgentOps())

const patchRaw = (account: TestAccount, body: string) =>
  exchange(as(
    HttpClientRequest.patch("/v1/workspaces/agent-ops").pipe(HttpClientRequest.bodyText(body, "application/json")),
    account
  ))

/** The fields a SettingsInvalid named. */
const fieldsOf = (error: object) =>
  "problems" in error
    ? (error.problems as ReadonlyArray<{ readonly field: string }>).map((problem) => problem.field)
    : []

let names = 0
const freshName = () => `HANDOFF_${process.pid}_${++names}`

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("agent-ops settings", (it) => {
  it.effect("a workspace that never changed them reads the defaults", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const settings = yield* read(owner)
      expect(settings).toMatchObject({ ...defaultAgentOps, workspaceId: owner.workspaceId, updatedBy: null })
    }))

  it.effect("a patch replaces the fields it gives within each group, the handoff whole; it is audited", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const updated = yield* update(owner, {
        publishGates: { minimumScore: 0.9 },
        retention: { transcriptDays: 7 },
        handoff: { kind: "email", address: " Support@Example.com " }
      })
      expect(updated).toMatchObject({
        publishGates: { runEvalsOnPublish: false, minimumScore: 0.9, mustNotRegress: true },
        retention: { conversationDays: 90, transcriptDays: 7 },
        tokenBudgets: defaultAgentOps.tokenBudgets,
        rateLimits: defaultAgentOps.rateLimits,
        handoff: { kind: "email", address: "support@example.com" },
        updatedBy: { kind: "user", userId: owner.userId }
      })
      const again = yield* update(owner, { tokenBudgets: { onExceeded: "handoff", perConversation: null } })
      expect(again.tokenBudgets).toEqual({ perConversation: null, onExceeded: "handoff" })
      expect(again.retention.transcriptDays).toBe(7)
      expect(yield* read(owner)).toEqual(again)
      // Nobody else's settings moved.
      expect((yield* read(yield* signUp())).publishGates).toEqual(defaultAgentOps.publishGates)
      const audit = yield* Effect.flatMap(
        clientOf(owner),
        (client) => client.audit.list({ urlParams: auditQuery({ action: "agent-ops-settings.updated" }) })
      )
      expect(audit.items).toHaveLength(2)
      expect(audit.items.at(-1)).toMatchObject({ resourceType: "agent-ops-settings", resourceId: owner.workspaceId })
    }))

  it.effect("rules across fields are 400s naming the field, and nothing is saved", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const refused = (body: unknown) =>
        Effect.map(failureOf(update(owner, body)), (error) => [error._tag, fieldsOf(error)])
      expect(yield* refused({ retention: { conversationDays: 10, transcriptDays: 30 } })).toEqual([
        "SettingsInvalid",
        ["retention.transcriptDays"]
      ])
      // Transcripts kept for ever outlive conversations kept 90 days.
      expect(yield* refused({ retention: { transcriptDays: null } })).toEqual([
        "SettingsInvalid",
        ["retention.transcriptDays"]
      ])
      expect(yield* refused({ tokenBudgets: { onExceeded: "handoff" } })).toEqual([
        "SettingsInvalid",
        ["tokenBudgets.onExceeded"]
      ])
      expect(yield* refused({ rateLimits: { perPublicTokenPerMinute: 10, perEndUserPerMinute: 11 } })).toEqual([
        "SettingsInvalid",
        ["rateLimits.perEndUserPerMinute"]
      ])
      expect(yield* refused({ handoff: { kind: "channel", connectionId: crypto.randomUUID() } })).toEqual([
        "SettingsInvalid",
        ["handoff.connectionId"]
      ])
      // Two at once are both named.
      expect(
        yield* refused({
          retention: { conversationDays: 10, transcriptDays: 30 },
          tokenBudgets: { onExceeded: "handoff" }
        })
      ).toEqual(["SettingsInvalid", ["retention.transcriptDays", "tokenBudgets.onExceeded"]])
      expect((yield* read(owner)).updatedBy).toBeNull()
      // Keeping both for ever is fine.
      const forever = yield* update(owner, { retention: { conversationDays: null, transcriptDays: null } })
      expect(forever.retention).toEqual({ conversationDays: null, transcriptDays: null })
    }))

  it.effect("a webhook handoff signs with a vault secret that must exist; the vault will not delete it while in use", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const name = freshName()
      const webhook = { kind: "webhook", url: "https://helpdesk.example.com/hooks/parley", signingSecret: name }
      const missing = yield* failureOf(update(owner, { handoff: webhook }))
      expect(missing).toMatchObject({ _tag: "SecretReferenceMissing", names: [name] })
      const secret = yield* client.secrets.create({ payload: secretCreate(name, freshValue("hook")) })
      const saved = yield* update(owner, { handoff: webhook, tokenBudgets: { onExceeded: "handoff" } })
      expect(saved.handoff).toEqual(webhook)
      const inUse = yield* failureOf(
        client.secrets.delete({ path: { secret_id: secret.id }, urlParams: { force: false } })
      )
      expect(inUse).toMatchObject({
        _tag: "SecretInUse",
        usedBy: [{ kind: "agent-ops-settings", id: owner.workspaceId }]
      })
      // Another workspace's secret of that name does not count.
      const stranger = yield* signUp()
      yield* (yield* clientOf(stranger)).secrets.create({ payload: secretCreate(freshName(), freshValue("x")) })
      expect((yield* failureOf(update(stranger, { handoff: webhook })))._tag).toBe("SecretReferenceMissing")
      // Handing off by email releases the secret.
      yield* update(owner, { handoff: { kind: "email", address: "desk@example.com" } })
      yield* client.secrets.delete({ path: { secret_id: secret.id }, urlParams: { force: false } })
    }))

  it.effect("concurrent patches of different fields all apply", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const patches = [
        { publishGates: { minimumScore: 0.5 } },
        { publishGates: { runEvalsOnPublish: true } },
        { publishGates: { mustNotRegress: false } },
        { retention: { conversationDays: 365 } },
        { tokenBudgets: { perConversation: 1000 } },
        { rateLimits: { perPublicTokenPerMinute: 1000 } },
        { rateLimits: { perEndUserPerMinute: 30 } },
        { handoff: { kind: "email", address: "desk@example.com" } }
      ]
      yield* Effect.forEach(patches, (patch) => update(owner, patch), { concurrency: "unbounded", discard: true })
      expect(yield* read(owner)).toMatchObject({
        publishGates: { minimumScore: 0.5, runEvalsOnPublish: true, mustNotRegress: false },
        retention: { conversationDays: 365, transcriptDays: 30 },
        tokenBudgets: { perConversation: 1000, onExceeded: "end" },
        rateLimits: { perPublicTokenPerMinute: 1000, perEndUserPerMinute: 30 },
        handoff: { kind: "email", address: "desk@example.com" }
      })
    }))

  it.effect("a viewer reads them; only an admin changes them", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const viewer = yield* join(owner, "viewer")
      const developer = yield* join(owner, "developer")
      const admin = yield* join(owner, "admin")
      expect((yield* read(viewer, owner.workspaceId)).workspaceId).toBe(owner.workspaceId)
      expect((yield* failureOf(update(viewer, { publishGates: { minimumScore: 0.1 } }, owner.workspaceId)))._tag)
        .toBe("Forbidden")
      expect((yield* failureOf(update(developer, { publishGates: { minimumScore: 0.1 } }, owner.workspaceId)))._tag)
        .toBe("Forbidden")
      const changed = yield* update(admin, { publishGates: { minimumScore: 0.1 } }, owner.workspaceId)
      expect(changed.updatedBy).toEqual({ kind: "user", userId: admin.userId })
    }))

  it.effect("bad and hostile bodies are typed 400s (413 when huge) and change nothing", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const cases: ReadonlyArray<readonly [string, string, number]> = [
        ["score above 1", JSON.stringify({ publishGates: { minimumScore: 1.5 } }), 400],
        ["zero days", JSON.stringify({ retention: { conversationDays: 0 } }), 400],
        ["fractional days", JSON.stringify({ retention: { conversationDays: 1.5 } }), 400],
        ["string number", JSON.stringify({ rateLimits: { perEndUserPerMinute: "10" } }), 400],
        ["unknown group", JSON.stringify({ billing: {} }), 400],
        ["unknown field in a group", JSON.stringify({ publishGates: { autoPublish: true } }), 400],
        ["bad handoff kind", JSON.stringify({ handoff: { kind: "pigeon" } }), 400],
        [
          "plain http webhook",
          JSON.stringify({ handoff: { kind: "webhook", url: "http://x.example.com", signingSecret: "A" } }),
          400
        ],
        [
          "lowercase secret name",
          JSON.stringify({ handoff: { kind: "webhook", url: "https://x.example.com", signingSecret: "key" } }),
          400
        ],
        ["bad email", JSON.stringify({ handoff: { kind: "email", address: "nobody" } }), 400],
        ["null group", JSON.stringify({ publishGates: null }), 400],
        ["deep", JSON.stringify({ handoff: { kind: "email", address: [[[[[[[[[["a"]]]]]]]]]] } }), 400],
        ["NUL", JSON.stringify({ handoff: { kind: "email", address: "a\u0000@example.com" } }), 400],
        ["lone surrogate", "{\"handoff\":{\"kind\":\"email\",\"address\":\"\\ud800@example.com\"}}", 400],
        ["not JSON", "{", 400],
        ["huge", JSON.stringify({ handoff: { kind: "email", address: "a".repeat(3_000_000) } }), 413]
      ]
      for (const [name, body, status] of cases) {
        const answer = yield* patchRaw(owner, body)
        expect(answer.status, name).toBe(status)
        expect(typeof answer.json._tag, name).toBe("string")
      }
      expect((yield* read(owner)).updatedBy).toBeNull()
    }))
})
