/**
 * Scripted Assistants and their intents over real HTTP and the real
 * database: the CRUD paths, the draft's revision (moved by every intent write,
 * not by settings), workspace isolation on every route, capabilities, strict
 * bodies, the audit trail, and the draft the runtime reads.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { Assistant, AssistantCreate, type AssistantId } from "../../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../../src/domain/assistants/Flow.js"
import { IntentCreate, type IntentId } from "../../../src/domain/assistants/Intent.js"
import type { WorkspaceId } from "../../../src/domain/identity/Ids.js"
import { Assistants } from "../../../src/services/assistants/Assistants.js"
import { AssistantsLive } from "../../../src/services/assistants/AssistantsLive.js"
import { as, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"

/** The body of a new Assistant, defaults filled as the typed client needs them. */
const newAssistant = (name: string, more: Partial<typeof AssistantCreate.Type> = {}) =>
  AssistantCreate.make({ name, ...more })

/** The body of a new intent, defaults filled. */
const newIntent = (name: string, utterances: ReadonlyArray<string>, more: Partial<typeof IntentCreate.Type> = {}) =>
  IntentCreate.make({ name, utterances, ...more })

const MISSING = "0190c7a0-0000-7000-8000-00000000beef" as AssistantId
const MISSING_INTENT = "0190c7a0-0000-7000-8000-00000000cafe" as IntentId

/** A raw JSON request as an account (in another workspace when `workspaceId` says so). */
const send = (
  method: "POST" | "PATCH" | "PUT",
  url: string,
  body: unknown,
  account: { token: string; address: string },
  workspaceId?: string
) =>
  exchange(as(HttpClientRequest.make(method)(url).pipe(HttpClientRequest.bodyUnsafeJson(body)), {
    ...account,
    ...(workspaceId === undefined ? {} : { workspaceId })
  }))

layer(testServer(), { excludeTestServices: true })("assistants", (it) => {
  it.effect("creates with defaults, reads, lists by page, changes settings and deletes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      // Raw: a name with spaces around it, which the typed client's schema refuses to send; the server trims it.
      const posted = yield* send("POST", "/v1/agents", { name: "  Support bot  " }, owner)
      expect(posted.status).toBe(201)
      const created = yield* client.assistants.get({ path: { agent_id: posted.json.id } })
      expect(created).toMatchObject({
        workspaceId: owner.workspaceId,
        name: "Support bot",
        description: "",
        language: "en",
        nluThreshold: null,
        revision: 1
      })
      expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/)
      // The create answer is the Assistant as it reads back.
      expect(Schema.decodeUnknownSync(Assistant.json)(posted.json)).toEqual(created)
      const flow = yield* client.flows.getFlow({ path: { agent_id: created.id } })
      expect(flow).toMatchObject({ agentId: created.id, nodes: [], edges: [], subflows: [], revision: 1 })

      const second = yield* client.assistants.create({
        payload: newAssistant("Billing", { description: "Invoices", language: "pt-BR", nluThreshold: 0.7 })
      })
      const third = yield* client.assistants.create({ payload: newAssistant("Sales") })
      const all = yield* client.assistants.list({ urlParams: {} })
      expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 })
      expect(all.items.map((assistant) => assistant.id)).toEqual([created.id, second.id, third.id])
      const page = yield* client.assistants.list({ urlParams: { limit: 2, offset: 1 } })
      expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 })
      expect(page.items.map((assistant) => assistant.id)).toEqual([second.id, third.id])
      // Raw: a limit the typed client refuses to send; the exact status of the decode error.
      const tooMany = yield* exchange(as(HttpClientRequest.get("/v1/agents?limit=101"), owner))
      expect(tooMany.status).toBe(400)

      // Settings are not the draft: the revision stays.
      const renamed = yield* client.assistants.update({
        path: { agent_id: created.id },
        payload: { name: "Helpdesk", nluThreshold: 0.6 }
      })
      expect(renamed).toMatchObject({ name: "Helpdesk", nluThreshold: 0.6, language: "en", revision: 1 })
      expect(renamed.updatedAt.epochMillis).toBeGreaterThanOrEqual(created.updatedAt.epochMillis)
      const unchanged = yield* client.assistants.update({ path: { agent_id: created.id }, payload: {} })
      expect(unchanged).toEqual(renamed)
      // null gives the threshold back to the intents' cross-validation.
      const automatic = yield* client.assistants.update({
        path: { agent_id: created.id },
        payload: { nluThreshold: null }
      })
      expect(automatic.nluThreshold).toBeNull()
      expect((yield* client.assistants.get({ path: { agent_id: created.id } })).nluThreshold).toBeNull()

      yield* client.assistants.delete({ path: { agent_id: created.id } })
      const gone = yield* failureOf(client.assistants.get({ path: { agent_id: created.id } }))
      expect(gone).toMatchObject({ _tag: "AssistantNotFound", agentId: created.id })
      expect((yield* failureOf(client.flows.getFlow({ path: { agent_id: created.id } })))._tag).toBe(
        "AssistantNotFound"
      )
      expect((yield* failureOf(client.assistants.delete({ path: { agent_id: created.id } })))._tag).toBe(
        "AssistantNotFound"
      )
      expect((yield* client.assistants.list({ urlParams: {} })).total).toBe(2)
    }))

  it.effect("intents: unique names, trimmed and collapsed utterances, and each write moves the draft's revision", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const assistant = yield* client.assistants.create({ payload: newAssistant("Orders") })
      const path = { agent_id: assistant.id }
      const revision = () => Effect.map(client.assistants.get({ path }), (a) => a.revision)

      // Raw: utterances with spaces around them, which the typed client's schema refuses to send.
      const created = yield* send("POST", `/v1/agents/${assistant.id}/intents`, {
        name: "track_order",
        utterances: ["  Where is my order? ", "where is  my ORDER?", "Track my parcel"],
        slots: [{ name: "order_id", entity: { kind: "regex", pattern: "[A-Z]{2}-\\d{5}" } }]
      }, owner)
      expect(created.status).toBe(201)
      const track = (yield* client.assistants.listIntents({ path, urlParams: {} })).items[0]!
      expect(track).toMatchObject({
        agentId: assistant.id,
        name: "track_order",
        description: "",
        utterances: ["Where is my order?", "Track my parcel"],
        slots: [{ name: "order_id", entity: { kind: "regex", pattern: "[A-Z]{2}-\\d{5}" }, required: false }]
      })
      expect(yield* revision()).toBe(2)
      const taken = yield* failureOf(
        client.assistants.createIntent({ path, payload: newIntent("track_order", ["hi"]) })
      )
      expect(taken).toMatchObject({ _tag: "IntentNameTaken", name: "track_order" })
      expect(yield* revision()).toBe(2)

      const greet = yield* client.assistants.createIntent({ path, payload: newIntent("greet", ["hello"]) })
      expect(yield* revision()).toBe(3)
      const listed = yield* client.assistants.listIntents({ path, urlParams: {} })
      expect(listed).toMatchObject({ total: 2, limit: 20, offset: 0 })
      expect(listed.items).toEqual([track, greet])
      expect((yield* client.assistants.listIntents({ path, urlParams: { limit: 1, offset: 1 } })).items).toEqual([
        greet
      ])

      const clash = yield* failureOf(client.assistants.updateIntent({
        path: { ...path, intent_id: greet.id },
        payload: { name: "track_order" }
      }))
      expect(clash._tag).toBe("IntentNameTaken")
      const changed = yield* client.assistants.updateIntent({
        path: { ...path, intent_id: greet.id },
        payload: { utterances: ["hello", "Hi there", "HELLO"], description: "Greetings" }
      })
      expect(changed).toMatchObject({ name: "greet", description: "Greetings", utterances: ["hello", "Hi there"] })
      expect(yield* revision()).toBe(4)
      // Keeping one's own name is no clash.
      yield* client.assistants.updateIntent({ path: { ...path, intent_id: greet.id }, payload: { name: "greet" } })
      expect(yield* revision()).toBe(5)

      yield* client.assistants.deleteIntent({ path: { ...path, intent_id: greet.id } })
      expect(yield* revision()).toBe(6)
      expect((yield* client.flows.getFlow({ path })).revision).toBe(6)
      const again = yield* failureOf(client.assistants.deleteIntent({ path: { ...path, intent_id: greet.id } }))
      expect(again).toMatchObject({ _tag: "IntentNotFound", intentId: greet.id })
      const missing = yield* failureOf(
        client.assistants.updateIntent({ path: { ...path, intent_id: MISSING_INTENT }, payload: { name: "x" } })
      )
      expect(missing._tag).toBe("IntentNotFound")
      expect(yield* revision()).toBe(6)
      const noAssistant = yield* failureOf(
        client.assistants.createIntent({ path: { agent_id: MISSING }, payload: newIntent("x", []) })
      )
      expect(noAssistant._tag).toBe("AssistantNotFound")
    }))

  it.effect("another workspace's Assistant is a 404 on every route, and nothing of it changes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const ours = yield* clientOf(owner)
      const assistant = yield* ours.assistants.create({ payload: newAssistant("Private") })
      const intent = yield* ours.assistants.createIntent({
        path: { agent_id: assistant.id },
        payload: newIntent("secret", ["the password is swordfish"])
      })
      const stranger = yield* signUp()
      const theirs = yield* clientOf(stranger)
      const path = { agent_id: assistant.id }
      const intentPath = { ...path, intent_id: intent.id }
      const attempts: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        theirs.assistants.get({ path }),
        theirs.assistants.update({ path, payload: { name: "Mine now" } }),
        theirs.assistants.delete({ path }),
        theirs.assistants.listIntents({ path, urlParams: {} }),
        theirs.assistants.createIntent({ path, payload: newIntent("injected", ["x"]) }),
        theirs.assistants.updateIntent({ path: intentPath, payload: { utterances: [] } }),
        theirs.assistants.deleteIntent({ path: intentPath })
      ]
      for (const attempt of attempts) {
        expect(yield* failureOf(attempt)).toMatchObject({ _tag: "AssistantNotFound", agentId: assistant.id })
      }
      expect((yield* theirs.assistants.list({ urlParams: {} })).total).toBe(0)
      expect(yield* ours.assistants.get({ path })).toMatchObject({ name: "Private", revision: 2 })
      expect((yield* ours.assistants.listIntents({ path, urlParams: {} })).items).toEqual([intent])
    }))

  it.effect("a viewer reads but may not write (403 naming assistant.write); an editor writes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const assistant = yield* (yield* clientOf(owner)).assistants.create({ payload: newAssistant("Shared") })
      const path = { agent_id: assistant.id }
      const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
      expect((yield* viewer.assistants.list({ urlParams: {} })).total).toBe(1)
      expect((yield* viewer.assistants.get({ path })).name).toBe("Shared")
      expect((yield* viewer.assistants.listIntents({ path, urlParams: {} })).total).toBe(0)
      const writes: ReadonlyArray<Effect.Effect<unknown, unknown>> = [
        viewer.assistants.create({ payload: newAssistant("Nope") }),
        viewer.assistants.update({ path, payload: { name: "Nope" } }),
        viewer.assistants.delete({ path }),
        viewer.assistants.createIntent({ path, payload: newIntent("nope", []) }),
        viewer.assistants.updateIntent({ path: { ...path, intent_id: MISSING_INTENT }, payload: {} }),
        viewer.assistants.deleteIntent({ path: { ...path, intent_id: MISSING_INTENT } })
      ]
      for (const write of writes) {
        expect(yield* failureOf(write)).toMatchObject({ _tag: "Forbidden", capability: "assistant.write" })
      }
      const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
      yield* editor.assistants.createIntent({ path, payload: newIntent("hello", ["hi"]) })
      expect((yield* editor.assistants.update({ path, payload: { description: "edited" } })).revision).toBe(2)
    }))

  it.effect("create and update bodies refuse unknown fields and bad values with a 400", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const assistant = yield* (yield* clientOf(owner)).assistants.create({ payload: newAssistant("Strict") })
      // Raw: bodies the typed client refuses to send; the exact status and tag of the decode error.
      const refusals = [
        yield* send("POST", "/v1/agents", { name: "Typo", langauge: "de" }, owner),
        yield* send("POST", "/v1/agents", { name: "Mine", workspaceId: owner.workspaceId }, owner),
        yield* send("POST", "/v1/agents", { name: "Mine", revision: 7 }, owner),
        yield* send("POST", "/v1/agents", { name: "" }, owner),
        yield* send("POST", "/v1/agents", { name: "Bad", nluThreshold: 1.5 }, owner),
        yield* send("PATCH", `/v1/agents/${assistant.id}`, { nmae: "Typo" }, owner),
        yield* send("PATCH", `/v1/agents/${assistant.id}`, { revision: 9 }, owner),
        yield* send("POST", `/v1/agents/${assistant.id}/intents`, { name: "a", utterances: [], colour: 1 }, owner),
        yield* send("POST", `/v1/agents/${assistant.id}/intents`, { name: "has space", utterances: [] }, owner),
        yield* send("POST", `/v1/agents/${assistant.id}/intents`, { name: "a", utterances: ["   "] }, owner)
      ]
      expect(refusals.map((res) => [res.status, res.json._tag])).toEqual(
        refusals.map(() => [400, "HttpApiDecodeError"])
      )
      const unchanged = yield* (yield* clientOf(owner)).assistants.get({ path: { agent_id: assistant.id } })
      expect(unchanged).toMatchObject({ name: "Strict", revision: 1 })
    }))

  it.effect("every write is in the workspace's audit log, with a summary and never the utterances", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* client.assistants.create({ payload: newAssistant("Audited") })
      const path = { agent_id: created.id }
      yield* client.assistants.update({ path, payload: { language: "fr" } })
      const intent = yield* client.assistants.createIntent({
        path,
        payload: newIntent("greet", ["bonjour tout le monde", "salut"])
      })
      yield* client.assistants.updateIntent({ path: { ...path, intent_id: intent.id }, payload: { name: "hello" } })
      yield* client.assistants.deleteIntent({ path: { ...path, intent_id: intent.id } })
      // With the response it came in: its x-trace-id header is the audit record's trace.
      const [, deleted] = yield* client.assistants.delete({ path, withResponse: true })

      const log = yield* client.audit.list({ urlParams: { action: "assistant.*" } })
      expect(log.items.map((record) => [record.action, record.resourceType, record.resourceId])).toEqual([
        ["assistant.deleted", "assistant", created.id],
        ["assistant.updated", "assistant", created.id],
        ["assistant.created", "assistant", created.id]
      ])
      expect(log.items[0]!.traceId).toBe(deleted.headers["x-trace-id"])
      expect(log.items[1]!.summary).toEqual({ before: { language: "en" }, after: { language: "fr" } })
      expect(log.items[2]!.summary).toEqual({
        before: null,
        after: { name: "Audited", description: "", language: "en", nluThreshold: null }
      })
      expect(log.items[2]!.actor).toEqual({ kind: "user", userId: owner.userId })
      const intents = yield* client.audit.list({ urlParams: { resourceType: "intent" } })
      expect(intents.items.map((record) => [record.action, record.summary])).toEqual([
        ["intent.deleted", {
          before: { agentId: created.id, name: "hello", utterances: 2, slots: 0 },
          after: null
        }],
        ["intent.updated", {
          before: { agentId: created.id, name: "greet", utterances: 2, slots: 0 },
          after: { agentId: created.id, name: "hello", utterances: 2, slots: 0 }
        }],
        ["intent.created", { before: null, after: { agentId: created.id, name: "greet", utterances: 2, slots: 0 } }]
      ])
      // Raw, a wire check: the whole log's text, not only the fields the typed client decodes.
      const all = yield* exchange(as(HttpClientRequest.get("/v1/audit?limit=100"), owner))
      expect(all.text).not.toContain("bonjour")
    }))

  it.effect("draftOf answers the Assistant, its flow and its intents at one revision; other workspaces get a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const assistant = yield* client.assistants.create({ payload: newAssistant("Runtime") })
      const path = { agent_id: assistant.id }
      const intent = yield* client.assistants.createIntent({
        path,
        payload: newIntent("order_status", ["where is my order"], {
          slots: [{ name: "order_id", entity: { kind: "number" }, required: true }]
        })
      })
      const payload = Schema.decodeUnknownSync(FlowReplace)({
        nodes: [
          { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
          {
            id: "route",
            type: "intent-router",
            position: { x: 0, y: 100 },
            data: { intents: ["order_status"], slotVariables: { order_id: "the_order" } }
          }
        ],
        edges: [{ id: "e1", source: "start", target: "route", kind: "next" }]
      })
      const flow = yield* client.flows.replaceFlow({ path, headers: {}, payload })

      const assistants = yield* Assistants
      const draft = yield* assistants.draftOf(owner.workspaceId as WorkspaceId, assistant.id)
      expect(draft.assistant).toMatchObject({ id: assistant.id, name: "Runtime", revision: 3 })
      expect(flow.revision).toBe(3)
      expect({ ...draft.flow }).toEqual({ ...flow, workspaceId: owner.workspaceId })
      expect(draft.flow.nodes[1]).toMatchObject({ data: { slotVariables: { order_id: "the_order" } } })
      expect(draft.intents).toEqual([intent])

      const stranger = yield* signUp()
      const refused = yield* Effect.either(assistants.draftOf(stranger.workspaceId as WorkspaceId, assistant.id))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("AssistantNotFound")
    }).pipe(Effect.provide(AssistantsLive)))
})
