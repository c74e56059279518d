/**
 * Patterns that imports bring compile through `UserPattern`, like every
 * pattern an author writes: one Parley cannot run in linear time never
 * reaches a draft, it is reported and the rest of the import kept (Rasa falls
 * back to the entity's values, Dialogflow to the entries as values, any
 * format drops the slot rather than its intent).
 */
import { describe, expect, it } from "@effect/vitest"
import { importDialogflow } from "../../../../src/domain/imports/Dialogflow.js"
import { finishDraft } from "../../../../src/domain/imports/ImportDraft.js"
import { importRasa } from "../../../../src/domain/imports/Rasa.js"
import { mapped } from "./Conversions.js"

const rasa = (regex: string) =>
  `version: "3.1"
nlu:
- regex: ticket
  examples: |
    - ${regex}
- intent: status
  examples: |
    - where is ticket [AB-1234](ticket)
    - status of [CD-99](ticket)
`

const dialogflow = (entries: ReadonlyArray<string>): Record<string, string> => ({
  "agent.json": JSON.stringify({ language: "en" }),
  "intents/status.json": JSON.stringify({
    name: "status",
    contexts: [],
    responses: [{
      parameters: [{ name: "ticket", dataType: "@ticket", required: false }],
      messages: [{ type: 0, speech: "Looking" }]
    }]
  }),
  "intents/status_usersays_en.json": JSON.stringify([{ data: [{ text: "where is my ticket" }] }]),
  "entities/ticket.json": JSON.stringify({ name: "ticket", isRegexp: true }),
  "entities/ticket_entries_en.json": JSON.stringify(entries.map((value) => ({ value, synonyms: [value] })))
})

const warnings = (result: ReturnType<typeof mapped>) =>
  result.report.warnings.map((warning) => [warning.code, warning.message])

describe("patterns in imports", () => {
  it("Rasa: a regex Parley can run becomes the slot's pattern; one it cannot is reported, and the values kept", () => {
    const runnable = mapped(importRasa({ "data/nlu.yml": rasa("[A-Z]{2}-\\d+") }))
    expect(runnable.intents[0]!.slots).toEqual([
      { name: "ticket", entity: { kind: "regex", pattern: "[A-Z]{2}-\\d+" }, required: false }
    ])

    const lookbehind = mapped(importRasa({ "data/nlu.yml": rasa("(?<=#)\\d+") }))
    expect(lookbehind.intents[0]!.slots).toEqual([{
      name: "ticket",
      entity: { kind: "list", values: [{ value: "AB-1234", synonyms: [] }, { value: "CD-99", synonyms: [] }] },
      required: false
    }])
    expect(warnings(lookbehind)).toContainEqual([
      "unsupported-feature",
      "The regex of entity ticket cannot be used (it uses a lookbehind ((?<=...)), a feature Parley cannot run in " +
      "linear time): its values are kept"
    ])
  })

  it("Dialogflow: a regexp entity becomes one regex of its entries; one Parley cannot run keeps them as values", () => {
    const runnable = mapped(importDialogflow(dialogflow(["[A-Z]{2}-\\d+", "T\\d{6}"])))
    expect(runnable.intents[0]!.slots).toEqual([
      { name: "ticket", entity: { kind: "regex", pattern: "(?:[A-Z]{2}-\\d+)|(?:T\\d{6})" }, required: false }
    ])
    expect(warnings(runnable).filter(([code]) => code === "unsupported-feature")).toEqual([])

    const backreference = mapped(importDialogflow(dialogflow(["(\\w)\\1"])))
    expect(backreference.intents[0]!.slots).toEqual([
      {
        name: "ticket",
        entity: { kind: "list", values: [{ value: "(\\w)\\1", synonyms: [] }] },
        required: false
      }
    ])
    expect(warnings(backreference)).toContainEqual([
      "unsupported-feature",
      "Entity ticket is a regexp entity Parley cannot run (it uses a backreference (\\1), a feature Parley cannot " +
      "run in linear time): its entries are kept as values"
    ])
  })

  it("any format: a slot whose pattern Parley cannot run is left out and reported, its intent kept", () => {
    const result = mapped(finishDraft({
      nodes: [{ id: "start", type: "start", data: {} }],
      edges: [],
      subflows: [],
      intents: [{
        name: "status",
        utterances: ["where is my ticket"],
        slots: [
          { name: "ticket", entity: { kind: "regex", pattern: "\\d+(?=!)" } },
          { name: "code", entity: { kind: "regex", pattern: "[A-Z]{3}" } }
        ]
      }]
    }))
    expect(result.intents.map((intent) => [intent.name, intent.slots.map((slot) => slot.name)])).toEqual([
      ["status", ["code"]]
    ])
    expect(warnings(result)).toContainEqual([
      "unsupported-feature",
      "Intent status: the pattern of the slot ticket cannot be used (it uses a lookahead ((?=...)), a feature " +
      "Parley cannot run in linear time): the slot was left out"
    ])
  })
})
