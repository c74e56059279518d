/**
 * The imports routes over real HTTP and the real database: the history (newest
 * first, paged, filtered, by id, per workspace), who may import, replacing an
 * Assistant's draft (stale revision, intents merged or replaced), typed 400s
 * for bad requests and unreadable sources (recorded as failed imports), and
 * the flow export in each format. Behaviour goes through the typed client;
 * raw requests stay for the bodies and queries its schemas would refuse to send.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { AssistantId } from "../../../src/domain/assistants/Assistant.js"
import type { FlowExportFormat } from "../../../src/domain/assistants/FlowExport.js"
import type { ImportId, ImportUnreadable } from "../../../src/domain/imports/Import.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"
import { getJson, importDrawio, importedAssistant, importSource, newTarget, postJson } from "./ImportsClient.js"

const chart = (name: string) => `flowchart TD\n  s([Start]) --> m[${name}]\n  m --> e([End])`

const importMermaid = (account: TestAccount, name: string, target: unknown = newTarget(name), workspaceId?: string) =>
  importSource(account, { format: "mermaid", content: chart(name), target }, workspaceId)

/** The `ImportUnreadable` (a 400) a typed import failed with; any other outcome fails the test. */
const unreadableOf = <A, E, R>(call: Effect.Effect<A, E, R>) =>
  Effect.map(failureOf(call), (error) => {
    expect(error).toMatchObject({ _tag: "ImportUnreadable", importId: expect.any(String) })
    return error as unknown as ImportUnreadable
  })

const parleyDocument = (intents: ReadonlyArray<{ name: string; utterances: ReadonlyArray<string> }>) =>
  JSON.stringify({
    format: "parley",
    version: 1,
    assistant: { name: "Doc", description: "", language: "en", nluThreshold: 0.5 },
    intents: intents.map((intent) => ({ ...intent, description: "", slots: [] })),
    flow: {
      nodes: [
        { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
        {
          id: "route",
          type: "intent-router",
          position: { x: 0, y: 100 },
          data: { intents: intents.map((i) => i.name) }
        }
      ],
      edges: [{ id: "e1", source: "start", target: "route", kind: "next" }]
    }
  })

const intentsOf = (account: TestAccount, agentId: AssistantId) =>
  Effect.map(
    importedAssistant(account, agentId),
    ({ intents }) => Object.fromEntries(intents.items.map((i) => [i.name, i.utterances]))
  )

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("imports over HTTP", (it) => {
  it.effect("lists the workspace's imports newest first, paged and filtered; reads one by id; another workspace sees none of them", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const ids: Array<ImportId> = []
      for (const name of ["First", "Second", "Third"]) {
        const res = yield* importMermaid(owner, name)
        expect(res).toMatchObject({
          format: "mermaid",
          status: "succeeded",
          target: "new",
          revision: expect.any(Number)
        })
        ids.push(res.id)
      }
      const failed = yield* unreadableOf(importDrawio(owner, "not a diagram", "Broken"))

      const page1 = yield* client.imports.list({ urlParams: { limit: 2 } })
      expect(page1).toMatchObject({ total: 4, limit: 2, offset: 0 })
      expect(page1.items.map((i) => i.id)).toEqual([failed.importId, ids[2]])
      const page2 = yield* client.imports.list({ urlParams: { limit: 2, offset: 2 } })
      expect(page2.items.map((i) => i.id)).toEqual([ids[1], ids[0]])
      const mermaidOnly = yield* client.imports.list({ urlParams: { format: "mermaid", status: "succeeded" } })
      expect(mermaidOnly.total).toBe(3)
      const failures = yield* client.imports.list({ urlParams: { status: "failed" } })
      expect(failures.items.map((i) => i.id)).toEqual([failed.importId])
      // Queries and ids the typed client's schemas refuse to send: raw.
      expect((yield* getJson(owner, "/v1/imports?limit=0")).status).toBe(400)
      expect((yield* getJson(owner, "/v1/imports?format=visio")).status).toBe(400)
      expect((yield* getJson(owner, "/v1/imports/not-a-uuid")).status).toBe(400)

      const one = yield* client.imports.get({ path: { id: ids[0]! } })
      expect(one).toEqual(page2.items[1])
      expect(one.report.mapped).toMatchObject({ nodes: 3, edges: 2 })
      expect(one.createdBy).toEqual({ kind: "user", userId: owner.userId })

      const stranger = yield* clientOf(yield* signUp())
      const hidden = yield* failureOf(stranger.imports.get({ path: { id: ids[0]! } }))
      expect(hidden).toMatchObject({ _tag: "ImportNotFound", importId: ids[0] })
      expect((yield* stranger.imports.list({ urlParams: {} })).total).toBe(0)
    }))

  it.effect("a viewer reads the history but may not import (403); an editor imports", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      expect((yield* importMermaid(owner, "Owned")).status).toBe("succeeded")
      const viewer = yield* join(owner, "viewer")
      const refused = yield* failureOf(importMermaid(viewer, "Nope", newTarget("Nope"), owner.workspaceId))
      expect(refused).toMatchObject({ _tag: "Forbidden", capability: "assistant.write" })
      expect(
        (yield* failureOf(importDrawio(viewer, "<mxGraphModel/>", "Nope", owner.workspaceId)))._tag
      ).toBe("Forbidden")
      expect((yield* (yield* clientOf(viewer, owner.workspaceId)).imports.list({ urlParams: {} })).total).toBe(1)
      const editor = yield* join(owner, "editor")
      expect((yield* importMermaid(editor, "Edited", newTarget("Edited"), owner.workspaceId)).status).toBe("succeeded")
      expect((yield* (yield* clientOf(owner)).imports.list({ urlParams: {} })).total).toBe(2)
    }))

  it.effect("replacing a draft: a stale revision is a 409 and changes nothing; intents are merged by name or replaced", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* importSource(owner, {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hi"] }, { name: "bye", utterances: ["bye"] }]),
        target: newTarget("Replaced")
      })
      const agentId = created.agentId!
      const revision = created.revision!
      const path = { agent_id: agentId }
      expect((yield* client.flows.getFlow({ path })).revision).toBe(revision)

      const stale = yield* failureOf(
        importMermaid(owner, "Stale", { kind: "replace", agentId, revision: revision - 1 })
      )
      expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: revision - 1, actual: revision })
      const flow = yield* client.flows.getFlow({ path })
      expect(flow.revision).toBe(revision)
      expect(flow.nodes.map((n) => n.id)).toEqual(["start", "route"])

      const merged = yield* importSource(owner, {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hello"] }, { name: "order", utterances: ["buy"] }]),
        target: { kind: "replace", agentId, revision }
      })
      expect(merged).toMatchObject({ target: "replace", agentId })
      expect(merged.revision).toBeGreaterThan(revision)
      expect(yield* intentsOf(owner, agentId)).toEqual({ greet: ["hi", "hello"], bye: ["bye"], order: ["buy"] })

      yield* importSource(owner, {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hey"] }]),
        target: { kind: "replace", agentId, intents: "replace" }
      })
      expect(yield* intentsOf(owner, agentId)).toEqual({ greet: ["hey"] })

      const missing = yield* failureOf(importMermaid(owner, "Missing", {
        kind: "replace",
        agentId: "00000000-0000-7000-8000-000000000000"
      }))
      expect(missing._tag).toBe("AssistantNotFound")
      const stranger = yield* signUp()
      expect((yield* failureOf(importMermaid(stranger, "Theirs", { kind: "replace", agentId })))._tag).toBe(
        "AssistantNotFound"
      )
    }))

  it.effect("bad requests are typed 400s: unknown format, extra fields, both content and files, bad paths", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      // Bodies the contract refuses, which the typed client's schemas would refuse to send: raw.
      const bodies: ReadonlyArray<[string, unknown]> = [
        ["/v1/imports/source", { format: "visio", content: "x", target: newTarget("A") }],
        ["/v1/imports/source", { format: "drawio", content: "x", target: newTarget("A") }],
        ["/v1/imports/source", { format: "mermaid", content: chart("A"), target: newTarget("A"), extra: true }],
        ["/v1/imports/source", { format: "mermaid", content: chart("A"), target: { ...newTarget("A"), color: "red" } }],
        ["/v1/imports/source", { format: "rasa", content: "x", files: { "a.yml": "x" }, target: newTarget("A") }],
        ["/v1/imports/source", { format: "rasa", files: { "../domain.yml": "intents: [a]" }, target: newTarget("A") }],
        ["/v1/imports/source", { format: "rasa", files: {}, target: newTarget("A") }],
        ["/v1/imports/source", { format: "mermaid", content: "", target: newTarget("A") }],
        ["/v1/imports/source", {
          format: "mermaid",
          content: chart("A"),
          target: { kind: "replace", agentId: "nope" }
        }],
        ["/v1/imports/drawio", { xml: "<mxGraphModel/>", target: newTarget("A"), extra: 1 }],
        ["/v1/imports/drawio", { target: newTarget("A") }]
      ]
      for (const [url, body] of bodies) {
        const res = yield* postJson(owner, url, body)
        expect(res.status, `${JSON.stringify(body)}: ${res.text.slice(0, 200)}`).toBe(400)
        expect(typeof res.json._tag).toBe("string")
        expect(res.json._tag).not.toBe("ImportUnreadable")
      }
      expect((yield* (yield* clientOf(owner)).imports.list({ urlParams: {} })).total).toBe(0)
    }))

  it.effect("an unreadable source is a 400 ImportUnreadable, recorded as a failed import with its report", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const sources = [
        importDrawio(owner, " ", "Blank"),
        importDrawio(owner, "<!DOCTYPE x [<!ENTITY a \"a\">]><mxfile>&a;</mxfile>", "Doctype"),
        importSource(owner, {
          format: "mermaid",
          content: "sequenceDiagram\n A->>B: hi",
          fileName: "seq.mmd",
          target: newTarget("Seq")
        }),
        importSource(owner, { format: "rasa", files: { "data/nlu.yml": "nlu: [" }, target: newTarget("Rasa") }),
        importSource(owner, { format: "dialogflow", files: { "agent.json": "{}" }, target: newTarget("DF") }),
        importSource(owner, {
          format: "parley",
          content: "{\"format\":\"parley\",\"version\":2}",
          target: newTarget("P")
        })
      ]
      for (const source of sources) {
        const res = yield* unreadableOf(source)
        expect(res.problems.length).toBeGreaterThan(0)
        const recorded = yield* client.imports.get({ path: { id: res.importId } })
        expect(recorded).toMatchObject({
          status: "failed",
          agentId: null,
          revision: null,
          format: res.format
        })
        expect(recorded.report.warnings).toEqual(res.problems)
        expect(recorded.report.mapped).toEqual({ nodes: 0, edges: 0, subflows: 0, intents: 0, utterances: 0 })
      }
      const seq = (yield* client.imports.list({ urlParams: { format: "mermaid" } })).items[0]!
      expect(seq.report.warnings[0]!.location).toEqual({ file: "seq.mmd" })
      // A failed import over an existing Assistant names it, and leaves its draft as it was.
      const created = yield* importMermaid(owner, "Kept")
      const path = { agent_id: created.agentId! }
      const before = yield* client.flows.getFlow({ path })
      const failed = yield* unreadableOf(importSource(owner, {
        format: "mermaid",
        content: "not a chart",
        target: { kind: "replace", agentId: created.agentId }
      }))
      expect((yield* client.imports.get({ path: { id: failed.importId } })).agentId).toBe(created.agentId)
      expect(yield* client.flows.getFlow({ path })).toEqual(before)
    }))

  it.effect("exports the draft as draw.io, Mermaid or a Parley document; a bad format is a 400, another workspace's Assistant a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const created = yield* importMermaid(owner, "Export me")
      const agentId = created.agentId!
      const expected: ReadonlyArray<readonly [FlowExportFormat, string, string, string]> = [
        ["drawio", "application/vnd.jgraph.mxfile", "export-me.drawio", "<mxfile"],
        ["mermaid", "text/vnd.mermaid", "export-me.mmd", "flowchart"],
        ["parley", "application/json", "export-me.parley.json", "\"format\": \"parley\""]
      ]
      for (const [format, contentType, fileName, marker] of expected) {
        const res = yield* client.flows.exportFlow({ path: { agent_id: agentId }, urlParams: { format } })
        expect(res).toMatchObject({ format, revision: created.revision, contentType, fileName })
        expect(res.content).toContain(marker)
        expect(res.content).toContain("Export me")
      }
      // Formats the typed client's schema refuses to send (unknown, empty, missing): raw.
      for (const query of ["?format=visio", "?format=", ""]) {
        const bad = yield* getJson(owner, `/v1/agents/${agentId}/flow/export${query}`)
        expect(bad.status, query).toBe(400)
        expect(typeof bad.json._tag).toBe("string")
      }
      const stranger = yield* clientOf(yield* signUp())
      expect(
        (yield* failureOf(stranger.flows.exportFlow({ path: { agent_id: agentId }, urlParams: { format: "parley" } })))
          ._tag
      ).toBe("AssistantNotFound")
    }))
})
