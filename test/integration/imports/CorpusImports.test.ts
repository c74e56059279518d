/**
 * Every diagram and bot of the corpus imports through the typed client, as a
 * client would send it: draw.io files to `/imports/drawio`, Mermaid, Rasa and
 * Dialogflow sources to `/imports/source` (the Dialogflow agent also zipped,
 * as a raw multipart upload). What did not map is reported as warnings; each
 * report is printed.
 */
import { HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { strToU8, zipSync } from "fflate"
import { readdirSync, readFileSync } from "node:fs"
import type { ImportReport } from "../../../src/domain/imports/Import.js"
import { as, signUp } from "../../support/Accounts.js"
import { corpus, corpusFiles } from "../../support/Fixtures.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"
import { importDrawio, importedAssistant, importSource, newTarget } from "./ImportsClient.js"

const summary = (name: string, result: { readonly report: ImportReport }) => {
  const codes: Record<string, number> = {}
  for (const warning of result.report.warnings) codes[warning.code] = (codes[warning.code] ?? 0) + 1
  console.log(
    `${name}: ${JSON.stringify(result.report.mapped)} skipped=${result.report.skipped.elements} warnings=${
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
        const res = yield* importDrawio(owner, readFileSync(corpus(`drawio/${file}`), "utf8"), file.slice(0, 100))
        expect(res).toMatchObject({ format: "drawio", status: "succeeded", target: "new" })
        expect(res.report.mapped.nodes).toBeGreaterThan(3)
        summary(file, res)
        const { flow } = yield* importedAssistant(owner, res.agentId!)
        expect(flow.nodes).toHaveLength(res.report.mapped.nodes)
        expect(flow.revision).toBe(res.revision)
      }
      const multiPage = yield* importDrawio(
        owner,
        readFileSync(corpus("drawio/blog__diagrams-for-teachers.drawio"), "utf8"),
        "Teachers"
      )
      expect(multiPage.report.mapped.subflows).toBeGreaterThan(0)
    }))

  it.effect("every Mermaid flowchart imports, including the @{ shape } syntax", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const file of readdirSync(corpus("sources/mermaid"))) {
        const res = yield* importSource(owner, {
          format: "mermaid",
          content: readFileSync(corpus(`sources/mermaid/${file}`), "utf8"),
          fileName: file,
          target: newTarget(file)
        })
        summary(file, res)
        const { flow } = yield* importedAssistant(owner, res.agentId!)
        expect(flow.nodes.filter((n) => n.type === "start")).toHaveLength(1)
        if (file.startsWith("magic8ball")) {
          expect(flow.nodes.map((n) => n.type).sort()).toEqual(
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
        const res = yield* importSource(owner, { format: "rasa", files, target: newTarget(bot) })
        summary(bot, res)
        expect(res.report.mapped.intents).toBeGreaterThan(5)
        const { flow, intents } = yield* importedAssistant(owner, res.agentId!)
        expect(intents.total).toBe(res.report.mapped.intents)
        if (bot === "moodbot") {
          expect(intents.items.find((i) => i.name === "greet")!.utterances).toContain("hey")
          expect(flow.nodes.find((n) => n.id === "utter_greet")).toMatchObject({ data: { text: "Hey! How are you?" } })
        }
        if (bot === "financial-demo") {
          expect(flow.nodes.filter((n) => n.type === "question").length).toBeGreaterThan(5)
          expect(intents.items.some((i) => i.slots.length > 0)).toBe(true)
        }
      }
    }))

  it.effect("the Dialogflow agent imports from its files and from its zip", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const files = corpusFiles("sources/dialogflow-es/carbonassistant-agent")
      const res = yield* importSource(owner, { format: "dialogflow", files, target: newTarget("Carbon") })
      summary("carbonassistant-agent", res)
      expect(res.report.mapped.intents).toBe(17)
      expect(res.report.warnings.some((w) => w.code === "truncated")).toBe(true)

      const zip = zipSync(
        Object.fromEntries(Object.entries(files).map(([path, text]) => [`agent/${path}`, strToU8(text)]))
      )
      // The zipped upload is multipart: a wire format, sent raw.
      const form = new FormData()
      form.append("format", "dialogflow")
      form.append("name", "Carbon zipped")
      form.append("archive", new Blob([zip], { type: "application/zip" }), "agent.zip")
      const zipped = yield* exchange(
        as(HttpClientRequest.post("/v1/imports/source").pipe(HttpClientRequest.bodyFormData(form)), owner)
      )
      expect(zipped.status, zipped.text.slice(0, 300)).toBe(201)
      expect(zipped.json.report.mapped).toEqual(res.report.mapped)
    }))
})
