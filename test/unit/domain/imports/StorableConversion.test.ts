/**
 * Text inside imported files that Parley cannot store (a NUL byte, escapes
 * that make NUL or a lone surrogate in YAML, JSON and XML) is replaced by
 * U+FFFD with a warning, in what is imported and in what is reported; the
 * rest of the source imports as it would.
 */
import { describe, expect, it } from "@effect/vitest"
import { strToU8, zipSync } from "fflate"
import type { Conversion } from "../../../../src/domain/imports/ImportDraft.js"
import {
  convertArchive,
  convertContent,
  convertDrawio,
  convertFiles
} from "../../../../src/domain/imports/ImportSource.js"
import { flawOf } from "../../../../src/domain/StorableText.js"
import { stringsIn } from "../../../support/JsonStrings.js"
import { mapped, refused } from "./Conversions.js"

const expectStorable = (conversion: Conversion) => {
  expect(stringsIn(conversion).filter((text) => flawOf(text) !== undefined)).toEqual([])
  const warnings = conversion._tag === "Mapped" ? conversion.report.warnings : conversion.problems
  expect(warnings.map((warning) => warning.code)).toContain("unstorable-text")
}

const rasa = {
  "domain.yml": `version: "3.1"\nintents: [greet]\nresponses:\n  utter_greet:\n  - text: "Hi\\0 there \\ud800"\n`,
  "data/nlu.yml": `version: "3.1"\nnlu:\n- intent: greet\n  examples: |\n    - hel\u0000lo\n    - hey\n`,
  "data/stories.yml": `version: "3.1"\nstories:\n- story: hi\n  steps:\n  - intent: greet\n  - action: utter_greet\n`
}

describe("imports make their text storable", () => {
  it("Rasa YAML: a raw NUL and the \\0 and \\ud800 escapes", () => {
    const result = mapped(convertFiles("rasa", rasa))
    expectStorable(result)
    expect(result.intents[0]!.utterances).toContain("hel\uFFFDlo")
    expect(JSON.stringify(result.flow)).toContain("Hi\uFFFD there \uFFFD")
  })

  it("the same project zipped: the NUL bytes of a file are text, replaced the same way", () => {
    const zip = zipSync(Object.fromEntries(Object.entries(rasa).map(([path, text]) => [`bot/${path}`, strToU8(text)])))
    const result = mapped(convertArchive("rasa", zip))
    expectStorable(result)
    expect(result.intents[0]!.utterances).toContain("hel\uFFFDlo")
  })

  it("Dialogflow JSON escapes, and a Parley document's", () => {
    const dialogflow = mapped(convertFiles("dialogflow", {
      "agent.json": JSON.stringify({ language: "en" }),
      "intents/hi.json": JSON.stringify({
        name: "hi",
        responses: [{ messages: [{ type: 0, speech: ["Hello\u0000 \udc00"] }] }]
      }),
      "intents/hi_usersays_en.json": JSON.stringify([{ data: [{ text: "hi\ud800" }] }])
    }))
    expectStorable(dialogflow)
    const parley = mapped(convertContent(
      "parley",
      JSON.stringify({
        format: "parley",
        version: 1,
        assistant: { name: "Doc", description: "", language: "en", nluThreshold: 0.5 },
        intents: [],
        flow: {
          nodes: [
            { id: "start", type: "start", position: { x: 0, y: 0 }, data: {} },
            { id: "m", type: "message", position: { x: 0, y: 100 }, data: { text: "a\u0000\ud800" } }
          ],
          edges: [{ id: "e1", source: "start", target: "m", kind: "next" }]
        }
      })
    ))
    expectStorable(parley)
    expect(JSON.stringify(parley.flow)).toContain("a\uFFFD\uFFFD")
  })

  it("draw.io character references to a surrogate", () => {
    const xml = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>
<mxCell id="s" value="Start" style="ellipse;" vertex="1" parent="1"><mxGeometry x="0" y="0" width="80" height="40" as="geometry"/></mxCell>
<mxCell id="m" value="Hi &amp;#xD800; &amp;#55296;" style="rounded=1;" vertex="1" parent="1"><mxGeometry x="0" y="100" width="80" height="40" as="geometry"/></mxCell>
<mxCell id="c" edge="1" parent="1" source="s" target="m"><mxGeometry relative="1" as="geometry"/></mxCell>
</root></mxGraphModel>`
    const result = mapped(convertDrawio(xml))
    expectStorable(result)
  })

  it("an unreadable source's problems, when they quote the source", () => {
    // V8's JSON.parse message quotes the text it could not read.
    const result = refused(convertContent("parley", "x\u0000\ud800 not JSON"))
    expectStorable(result)
    expect(result.problems[0]!.message).toContain("x\uFFFD\uFFFD not JSON")
  })
})
