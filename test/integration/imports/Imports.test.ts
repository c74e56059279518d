/**
 * The imports routes over real HTTP and the real database: the history (newest
 * first, paged, filtered, by id, per workspace), who may import, replacing an
 * Assistant's draft (stale revision, intents merged or replaced), typed 400s
 * for bad requests and unreadable sources (recorded as failed imports), and
 * the flow export in each format.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { getJson, newTarget, postJson } from "./ImportsClient.js"

const chart = (name: string) => `flowchart TD\n  s([Start]) --> m[${name}]\n  m --> e([End])`

const importMermaid = (account: TestAccount, name: string, target: unknown = newTarget(name)) =>
  postJson(account, "/v1/imports/source", { format: "mermaid", content: chart(name), target })

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

const intentsOf = (account: TestAccount, agentId: string) =>
  Effect.map(
    getJson(account, `/v1/agents/${agentId}/intents?limit=100`),
    (res) => Object.fromEntries(res.json.items.map((i: any) => [i.name, i.utterances]))
  )

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("imports over HTTP", (it) => {
  it.effect("lists the workspace's imports newest first, paged and filtered; reads one by id; another workspace sees none of them", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const ids: Array<string> = []
      for (const name of ["First", "Second", "Third"]) {
        const res = yield* importMermaid(owner, name)
        expect(res.status, res.text).toBe(201)
        expect(res.json).toMatchObject({
          format: "mermaid",
          status: "succeeded",
          target: "new",
          revision: expect.any(Number)
        })
        ids.push(res.json.id)
      }
      const failed = yield* postJson(owner, "/v1/imports/drawio", { xml: "not a diagram", target: newTarget("Broken") })
      expect(failed.status).toBe(400)

      const page1 = yield* getJson(owner, "/v1/imports?limit=2")
      expect(page1.status).toBe(200)
      expect(page1.json).toMatchObject({ total: 4, limit: 2, offset: 0 })
      expect(page1.json.items.map((i: any) => i.id)).toEqual([failed.json.importId, ids[2]])
      const page2 = yield* getJson(owner, "/v1/imports?limit=2&offset=2")
      expect(page2.json.items.map((i: any) => i.id)).toEqual([ids[1], ids[0]])
      const mermaidOnly = yield* getJson(owner, "/v1/imports?format=mermaid&status=succeeded")
      expect(mermaidOnly.json.total).toBe(3)
      const failures = yield* getJson(owner, "/v1/imports?status=failed")
      expect(failures.json.items.map((i: any) => i.id)).toEqual([failed.json.importId])
      expect((yield* getJson(owner, "/v1/imports?limit=0")).status).toBe(400)
      expect((yield* getJson(owner, "/v1/imports?format=visio")).status).toBe(400)

      const one = yield* getJson(owner, `/v1/imports/${ids[0]}`)
      expect(one.status).toBe(200)
      expect(one.json).toEqual(page2.json.items[1])
      expect(one.json.report.mapped).toMatchObject({ nodes: 3, edges: 2 })
      expect(one.json.createdBy).toEqual({ kind: "user", userId: owner.userId })

      const stranger = yield* signUp()
      const hidden = yield* getJson(stranger, `/v1/imports/${ids[0]}`)
      expect(hidden.status).toBe(404)
      expect(hidden.json).toMatchObject({ _tag: "ImportNotFound", importId: ids[0] })
      expect((yield* getJson(stranger, "/v1/imports")).json.total).toBe(0)
      expect((yield* getJson(owner, "/v1/imports/not-a-uuid")).status).toBe(400)
    }))

  it.effect("a viewer reads the history but may not import (403); an editor imports", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      expect((yield* importMermaid(owner, "Owned")).status).toBe(201)
      const viewer = { ...(yield* join(owner, "viewer")), workspaceId: owner.workspaceId }
      const refused = yield* importMermaid(viewer, "Nope")
      expect(refused.status).toBe(403)
      expect(refused.text).toContain("assistant.write")
      expect(
        (yield* postJson(viewer, "/v1/imports/drawio", { xml: "<mxGraphModel/>", target: newTarget("Nope") })).status
      ).toBe(403)
      expect((yield* getJson(viewer, "/v1/imports")).json.total).toBe(1)
      const editor = { ...(yield* join(owner, "editor")), workspaceId: owner.workspaceId }
      expect((yield* importMermaid(editor, "Edited")).status).toBe(201)
      expect((yield* getJson(owner, "/v1/imports")).json.total).toBe(2)
    }))

  it.effect("replacing a draft: a stale revision is a 409 and changes nothing; intents are merged by name or replaced", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* postJson(owner, "/v1/imports/source", {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hi"] }, { name: "bye", utterances: ["bye"] }]),
        target: newTarget("Replaced")
      })
      expect(created.status, created.text).toBe(201)
      const agentId = created.json.agentId
      const revision = created.json.revision
      expect((yield* getJson(owner, `/v1/agents/${agentId}/flow`)).json.revision).toBe(revision)

      const stale = yield* importMermaid(owner, "Stale", { kind: "replace", agentId, revision: revision - 1 })
      expect(stale.status).toBe(409)
      expect(stale.json).toMatchObject({ _tag: "RevisionConflict", expected: revision - 1, actual: revision })
      const flow = (yield* getJson(owner, `/v1/agents/${agentId}/flow`)).json
      expect(flow.revision).toBe(revision)
      expect(flow.nodes.map((n: any) => n.id)).toEqual(["start", "route"])

      const merged = yield* postJson(owner, "/v1/imports/source", {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hello"] }, { name: "order", utterances: ["buy"] }]),
        target: { kind: "replace", agentId, revision }
      })
      expect(merged.status, merged.text).toBe(201)
      expect(merged.json).toMatchObject({ target: "replace", agentId })
      expect(merged.json.revision).toBeGreaterThan(revision)
      expect(yield* intentsOf(owner, agentId)).toEqual({ greet: ["hi", "hello"], bye: ["bye"], order: ["buy"] })

      const replaced = yield* postJson(owner, "/v1/imports/source", {
        format: "parley",
        content: parleyDocument([{ name: "greet", utterances: ["hey"] }]),
        target: { kind: "replace", agentId, intents: "replace" }
      })
      expect(replaced.status, replaced.text).toBe(201)
      expect(yield* intentsOf(owner, agentId)).toEqual({ greet: ["hey"] })

      const missing = yield* importMermaid(owner, "Missing", {
        kind: "replace",
        agentId: "00000000-0000-7000-8000-000000000000"
      })
      expect(missing.status).toBe(404)
      expect(missing.json._tag).toBe("AssistantNotFound")
      const stranger = yield* signUp()
      expect((yield* importMermaid(stranger, "Theirs", { kind: "replace", agentId })).status).toBe(404)
    }))

  it.effect("bad requests are typed 400s: unknown format, extra fields, both content and files, bad paths", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
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
      expect((yield* getJson(owner, "/v1/imports")).json.total).toBe(0)
    }))

  it.effect("an unreadable source is a 400 ImportUnreadable, recorded as a failed import with its report", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const sources: ReadonlyArray<[string, unknown]> = [
        ["/v1/imports/drawio", { xml: " ", target: newTarget("Blank") }],
        ["/v1/imports/drawio", {
          xml: "<!DOCTYPE x [<!ENTITY a \"a\">]><mxfile>&a;</mxfile>",
          target: newTarget("Doctype")
        }],
        ["/v1/imports/source", {
          format: "mermaid",
          content: "sequenceDiagram\n A->>B: hi",
          fileName: "seq.mmd",
          target: newTarget("Seq")
        }],
        ["/v1/imports/source", { format: "rasa", files: { "data/nlu.yml": "nlu: [" }, target: newTarget("Rasa") }],
        ["/v1/imports/source", { format: "dialogflow", files: { "agent.json": "{}" }, target: newTarget("DF") }],
        ["/v1/imports/source", {
          format: "parley",
          content: "{\"format\":\"parley\",\"version\":2}",
          target: newTarget("P")
        }]
      ]
      for (const [url, body] of sources) {
        const res = yield* postJson(owner, url, body)
        expect(res.status, res.text.slice(0, 300)).toBe(400)
        expect(res.json).toMatchObject({ _tag: "ImportUnreadable", importId: expect.any(String) })
        expect(res.json.problems.length).toBeGreaterThan(0)
        const recorded = yield* getJson(owner, `/v1/imports/${res.json.importId}`)
        expect(recorded.status).toBe(200)
        expect(recorded.json).toMatchObject({
          status: "failed",
          agentId: null,
          revision: null,
          format: res.json.format
        })
        expect(recorded.json.report.warnings).toEqual(res.json.problems)
        expect(recorded.json.report.mapped).toEqual({ nodes: 0, edges: 0, subflows: 0, intents: 0, utterances: 0 })
      }
      const seq = (yield* getJson(owner, "/v1/imports?format=mermaid")).json.items[0]
      expect(seq.report.warnings[0].location).toEqual({ file: "seq.mmd" })
      // A failed import over an existing Assistant names it, and leaves its draft as it was.
      const created = yield* importMermaid(owner, "Kept")
      const before = (yield* getJson(owner, `/v1/agents/${created.json.agentId}/flow`)).json
      const failed = yield* postJson(owner, "/v1/imports/source", {
        format: "mermaid",
        content: "not a chart",
        target: { kind: "replace", agentId: created.json.agentId }
      })
      expect(failed.status).toBe(400)
      expect((yield* getJson(owner, `/v1/imports/${failed.json.importId}`)).json.agentId).toBe(created.json.agentId)
      expect((yield* getJson(owner, `/v1/agents/${created.json.agentId}/flow`)).json).toEqual(before)
    }))

  it.effect("exports the draft as draw.io, Mermaid or a Parley document; a bad format is a 400, another workspace's Assistant a 404", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* importMermaid(owner, "Export me")
      const agentId = created.json.agentId
      const expected: Record<string, [string, string, string]> = {
        drawio: ["application/vnd.jgraph.mxfile", "export-me.drawio", "<mxfile"],
        mermaid: ["text/vnd.mermaid", "export-me.mmd", "flowchart"],
        parley: ["application/json", "export-me.parley.json", "\"format\": \"parley\""]
      }
      for (const [format, [contentType, fileName, marker]] of Object.entries(expected)) {
        const res = yield* getJson(owner, `/v1/agents/${agentId}/flow/export?format=${format}`)
        expect(res.status, res.text.slice(0, 200)).toBe(200)
        expect(res.json).toMatchObject({ format, revision: created.json.revision, contentType, fileName })
        expect(res.json.content).toContain(marker)
        expect(res.json.content).toContain("Export me")
      }
      for (const query of ["?format=visio", "?format=", ""]) {
        const bad = yield* getJson(owner, `/v1/agents/${agentId}/flow/export${query}`)
        expect(bad.status, query).toBe(400)
        expect(typeof bad.json._tag).toBe("string")
      }
      const stranger = yield* signUp()
      expect((yield* getJson(stranger, `/v1/agents/${agentId}/flow/export?format=parley`)).status).toBe(404)
    }))
})
