/**
 * Every diagram and bot of the shared corpus imports over HTTP, as a client
 * would send it: draw.io files to `/imports/drawio`, Mermaid, Rasa and
 * Dialogflow sources to `/imports/source` (the Dialogflow agent also zipped,
 * as a multipart upload). What did not map is reported as warnings; each
 * report is printed.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { strToU8, zipSync } from "fflate"
import { readdirSync, readFileSync } from "node:fs"
import { as, signUp } from "../../support/Accounts.js"
import { corpus, corpusFiles } from "../../support/Fixtures.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { getJson, newTarget, postJson } from "./ImportsClient.js"

const summary = (name: string, json: any) => {
  const codes: Record<string, number> = {}
  for (const warning of json.report.warnings) codes[warning.code] = (codes[warning.code] ?? 0) + 1
  console.log(
    `${name}: ${JSON.stringify(json.report.mapped)} skipped=${json.report.skipped.elements} warnings=${
      JSON.stringify(codes)
    }`
  )
}

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("corpus imports", (it) => {
  it.effect("every draw.io diagram imports, its report printed", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const files = readdirSync(corpus("drawio"))
      expect(files.length).toBe(13)
      for (const file of files) {
        const res = yield* postJson(owner, "/v1/imports/drawio", {
          xml: readFileSync(corpus(`drawio/${file}`), "utf8"),
          target: newTarget(file.slice(0, 100))
        })
        expect(res.status, `${file}: ${res.text.slice(0, 300)}`).toBe(201)
        expect(res.json).toMatchObject({ format: "drawio", status: "succeeded", target: "new" })
        expect(res.json.report.mapped.nodes).toBeGreaterThan(3)
        summary(file, res.json)
        const flow = yield* getJson(owner, `/v1/agents/${res.json.agentId}/flow`)
        expect(flow.json.nodes).toHaveLength(res.json.report.mapped.nodes)
        expect(flow.json.revision).toBe(res.json.revision)
      }
      const multiPage = yield* postJson(owner, "/v1/imports/drawio", {
        xml: readFileSync(corpus("drawio/blog__diagrams-for-teachers.drawio"), "utf8"),
        target: newTarget("Teachers")
      })
      expect(multiPage.json.report.mapped.subflows).toBeGreaterThan(0)
    }))

  it.effect("every Mermaid flowchart imports, including the @{ shape } syntax", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const file of readdirSync(corpus("sources/mermaid"))) {
        const res = yield* postJson(owner, "/v1/imports/source", {
          format: "mermaid",
          content: readFileSync(corpus(`sources/mermaid/${file}`), "utf8"),
          fileName: file,
          target: newTarget(file)
        })
        expect(res.status, res.text.slice(0, 300)).toBe(201)
        summary(file, res.json)
        const flow = yield* getJson(owner, `/v1/agents/${res.json.agentId}/flow`)
        expect(flow.json.nodes.filter((n: any) => n.type === "start")).toHaveLength(1)
        if (file.startsWith("magic8ball")) {
          expect(flow.json.nodes.map((n: any) => n.type).sort()).toEqual(
            ["condition", "condition", "end", "message", "message", "question", "start"]
          )
        }
      }
    }))

  it.effect("every Rasa bot imports: intents with examples and slots, stories and rules as paths", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const bot of ["moodbot", "formbot", "financial-demo"]) {
        const files = corpusFiles(`sources/rasa/${bot}`)
        // The formbot's only domain is Rasa 1.x and does not match its 3.x data.
        delete files["domain.rasa1-legacy.yml"]
        const res = yield* postJson(owner, "/v1/imports/source", { format: "rasa", files, target: newTarget(bot) })
        expect(res.status, res.text.slice(0, 300)).toBe(201)
        summary(bot, res.json)
        expect(res.json.report.mapped.intents).toBeGreaterThan(5)
        const intents = yield* getJson(owner, `/v1/agents/${res.json.agentId}/intents?limit=100`)
        expect(intents.json.total).toBe(res.json.report.mapped.intents)
        if (bot === "moodbot") {
          const greet = intents.json.items.find((i: any) => i.name === "greet")
          expect(greet.utterances).toContain("hey")
          const flow = yield* getJson(owner, `/v1/agents/${res.json.agentId}/flow`)
          expect(flow.json.nodes.find((n: any) => n.id === "utter_greet").data.text).toBe("Hey! How are you?")
        }
        if (bot === "financial-demo") {
          const flow = yield* getJson(owner, `/v1/agents/${res.json.agentId}/flow`)
          expect(flow.json.nodes.filter((n: any) => n.type === "question").length).toBeGreaterThan(5)
          expect(intents.json.items.some((i: any) => i.slots.length > 0)).toBe(true)
        }
      }
    }))

  it.effect("the Dialogflow agent imports from its files and from its zip", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const files = corpusFiles("sources/dialogflow-es/carbonassistant-agent")
      const res = yield* postJson(owner, "/v1/imports/source", {
        format: "dialogflow",
        files,
        target: newTarget("Carbon")
      })
      expect(res.status, res.text.slice(0, 300)).toBe(201)
      summary("carbonassistant-agent", res.json)
      expect(res.json.report.mapped.intents).toBe(17)
      expect(res.json.report.warnings.some((w: any) => w.code === "truncated")).toBe(true)

      const zip = zipSync(
        Object.fromEntries(Object.entries(files).map(([path, text]) => [`agent/${path}`, strToU8(text)]))
      )
      const form = new FormData()
      form.append("format", "dialogflow")
      form.append("name", "Carbon zipped")
      form.append("archive", new Blob([zip], { type: "application/zip" }), "agent.zip")
      const zipped = yield* exchange(
        as(HttpClientRequest.post("/v1/imports/source").pipe(HttpClientRequest.bodyFormData(form)), owner)
      )
      expect(zipped.status, zipped.text.slice(0, 300)).toBe(201)
      expect(zipped.json.report.mapped).toEqual(res.json.report.mapped)
    }))
})
