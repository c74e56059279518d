/**
 * Rasa projects to intents and flows: nlu with entity annotations, synonyms,
 * regexes and lookups; domain responses, slots and forms; stories and rules
 * as paths; and malformed YAML, which is refused or warned, never thrown.
 */
import { describe, expect, it } from "@effect/vitest"
import { importRasa, RASA_YAML_CHARACTERS } from "../../../../src/domain/imports/Rasa.js"
import { codesOf, dataOf, edgesOf, mapped, nodesOf, refused, routesFollowable } from "./Conversions.js"

const nlu = `version: "3.1"
nlu:
- intent: greet
  examples: |
    - hey
    - hello there
- intent: order
  examples: |
    - I want a [large](size) pizza
    - a [small]{"entity": "size", "value": "s"} one please
    - send it to [Berlin](city:berlin)
- synonym: large
  examples: |
    - big
    - huge
- regex: zipcode
  examples: |
    - \\d{5}
- lookup: city
  examples: |
    - Paris
- intent: zip
  examples: |
    - my zip is [12345](zipcode)
- something: else
`
const domain = `version: "3.1"
intents: [greet, order, goodbye]
slots:
  size: {type: categorical, values: [s, m, l]}
  count: {type: float}
responses:
  utter_greet:
  - text: "Hello {name}!"
    buttons:
    - title: Order
      payload: /order
  utter_ask_size:
  - text: What size?
  utter_done:
  - text: Done
forms:
  pizza_form:
    required_slots: [size, count]
`
const stories = `version: "3.1"
stories:
- story: happy
  steps:
  - intent: greet
  - action: utter_greet
  - intent: order
  - action: pizza_form
  - active_loop: pizza_form
  - active_loop: null
  - action: utter_done
  - action: action_custom
  - slot_was_set:
    - size: l
`
const rules = `version: "3.1"
rules:
- rule: bye
  condition:
  - active_loop: null
  steps:
  - intent: goodbye
  - action: utter_bye
- rule: fallback
  steps:
  - intent: nlu_fallback
  - action: utter_done
`

describe("Rasa import", () => {
  it("reads nlu: examples without annotations, annotated entities as slots with lookups, synonyms and regexes", () => {
    const result = mapped(importRasa({ "data/nlu.yml": nlu, "domain.yml": domain }))
    const intents = Object.fromEntries(result.intents.map((i) => [i.name, i]))
    expect(intents["greet"]!.utterances).toEqual(["hey", "hello there"])
    expect(intents["order"]!.utterances).toEqual(["I want a large pizza", "a small one please", "send it to Berlin"])
    expect(intents["order"]!.slots.map((s) => [s.name, s.entity])).toEqual([
      ["size", { kind: "list", values: [{ value: "large", synonyms: ["big", "huge"] }, { value: "s", synonyms: [] }] }],
      ["city", { kind: "list", values: [{ value: "Paris", synonyms: [] }, { value: "berlin", synonyms: [] }] }]
    ])
    expect(intents["zip"]!.slots[0]).toMatchObject({ name: "zipcode", entity: { kind: "regex", pattern: "\\d{5}" } })
    expect(intents["goodbye"]!.utterances).toEqual([])
    expect(codesOf(result)).toEqual(expect.arrayContaining(["unsupported-element", "intent-without-utterances"]))
  })

  it("merges stories and rules into paths: responses as messages, a form as questions, fallback rule, custom actions warned", () => {
    const result = mapped(
      importRasa({ "data/nlu.yml": nlu, "domain.yml": domain, "data/stories.yml": stories, "data/rules.yml": rules })
    )
    expect(nodesOf(result).map((n) => n.split(" ").slice(0, 2).join(" "))).toEqual([
      "start start",
      "router intent-router",
      "utter_greet message",
      "utter_greet_router intent-router",
      "ask_size question",
      "ask_count question",
      "utter_done message",
      "utter_bye message",
      "utter_done_2 message"
    ])
    expect(edgesOf(result)).toEqual([
      "start>router next",
      "router>utter_greet intent:greet",
      "utter_greet>utter_greet_router next",
      "utter_greet_router>ask_size intent:order",
      "ask_size>ask_count answered",
      "ask_count>utter_done answered",
      "router>utter_bye intent:goodbye",
      "router>utter_done_2 fallback",
      "utter_done>router next",
      "utter_bye>router next",
      "utter_done_2>router next"
    ])
    expect(dataOf(result, "utter_greet")).toEqual({
      text: "Hello {{name}}!",
      buttons: [{ label: "Order", payload: "/order" }]
    })
    expect(dataOf(result, "ask_size")).toMatchObject({
      prompt: "What size?",
      variable: "size",
      validation: { kind: "choice" }
    })
    expect(dataOf(result, "ask_count")).toMatchObject({ prompt: "What is your count?", validation: { kind: "number" } })
    const messages = result.report.warnings.map((w) => w.message)
    expect(messages).toEqual(expect.arrayContaining([
      "story \"happy\": custom action action_custom is not imported",
      "story \"happy\": a slot_was_set step is not imported",
      "rule \"bye\": its conditions are not imported; its steps are",
      "Response utter_bye is not in the domain: its name stands in for its text"
    ]))
    routesFollowable(result)
  })

  it("skips files that are not YAML and test stories, reports CALM flows, and imports the rest", () => {
    const result = mapped(importRasa({
      "domain.yml": domain,
      "README.md": "# bot",
      "tests/test_stories.yml": "stories: []",
      "data/flows.yml": "flows:\n  transfer:\n    steps: []"
    }))
    expect(result.report.warnings.map((w) => w.location?.file)).toEqual(
      expect.arrayContaining(["README.md", "tests/test_stories.yml", "data/flows.yml"])
    )
    expect(result.intents.map((i) => i.name)).toEqual(["greet", "order", "goodbye"])
  })

  it("refuses malformed or empty YAML with the file and reason, and warns when good files come with it", () => {
    const bad = refused(importRasa({ "data/nlu.yml": "nlu:\n - intent: [unclosed\n   examples: |\n  - x" }))
      .problems[0]!
    expect(bad.location).toEqual({ file: "data/nlu.yml" })
    for (
      const files of [{ "a.yml": "" }, { "a.yml": "just text" }, {
        "a.yml": "nlu: 5\nstories: {a: 1}\nresponses: [1]\nslots: x"
      }, { "a.md": "# no" }]
    ) {
      refused(importRasa(files))
    }
    const bomb = refused(
      importRasa({
        "a.yml":
          `a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\nnlu: []`
      })
    )
    expect(bomb.problems[0]!.message).toMatch(/alias/i)
    const partly = mapped(importRasa({ "data/nlu.yml": "nlu: [", "domain.yml": domain }))
    expect(partly.report.warnings[0]).toMatchObject({ code: "unreadable", location: { file: "data/nlu.yml" } })
  })

  it("refuses a project with more YAML than it parses in about a second, before parsing any", () => {
    const examples = Array.from({ length: 120_000 }, (_, i) => `    - example number ${i}`).join("\n")
    const huge = `nlu:\n- intent: chatter\n  examples: |\n${examples}\n`
    expect(huge.length).toBeGreaterThan(RASA_YAML_CHARACTERS)
    // Refused as a whole, naming the budget: nothing of it was parsed (parsed, it would have imported).
    const result = refused(importRasa({ "data/nlu.yml": huge, "domain.yml": domain }))
    expect(result.problems).toHaveLength(1)
    expect(result.problems[0]!.message).toMatch(/reads at most 2097152/)
  })

  it("maps odd values without throwing: wrong types, nulls, odd annotations, prototype names", () => {
    const result = mapped(importRasa({
      "a.yml": `nlu:
- intent: 5
  examples: 7
- intent: ok
  examples: [1, {text: hi}, null, {text: 5}]
- intent: __proto__
  examples: |
    - a [b](constructor)
    - [x]()
    - [y](:)
    - [z]{bad json}
    - [ ](e)
stories:
- story: s
  steps: 5
- story: t
  steps: [1, null, {intent: 5}, {action: 7}, {or: 3}, {or: [{intent: ok}, 4]}, {action: utter_x}]
responses:
  constructor:
  - text: x
forms: [old_form]`
    }))
    expect(result.intents.find((i) => i.name === "ok")!.utterances).toEqual(["1", "hi"])
    expect(result.intents.find((i) => i.name === "proto__")!.utterances).toEqual(["a b", "[x]()", "y", "z"])
    expect(edgesOf(result)).toContain("router>utter_x intent:ok")
    routesFollowable(result)
  })
})
