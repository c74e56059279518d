/**
 * What of a Rasa response reaches its message or question, and that
 * everything else is named in the report (response, field, what was done)
 * rather than lost: images, variants, channel and conditional variants,
 * custom payloads, attachments, buttons past the tenth, responses without
 * text, and what a form's `utter_ask_*` carries beside its text.
 */
import { describe, expect, it } from "@effect/vitest"
import { importRasa } from "../../../../src/domain/imports/Rasa.js"
import { dataOf, mapped } from "./Conversions.js"

/** A project whose one story says each response in turn, after `greet`. */
const project = (responses: string, actions: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
  importRasa({
    "domain.yml": `version: "3.1"\nintents: [greet]\nresponses:\n${responses}`,
    "data/stories.yml": `version: "3.1"\nstories:\n- story: all\n  steps:\n  - intent: greet\n${
      actions.map((action) => `  - action: ${action}`).join("\n")
    }\n`,
    ...extra
  })

/** The report's messages about responses. */
const responseWarnings = (result: ReturnType<typeof mapped>) =>
  result.report.warnings.filter((w) => w.message.startsWith("Response ")).map((w) => w.message)

describe("Rasa responses", () => {
  it("carries an https image over to the message, with its text and buttons, and reports nothing", () => {
    const result = mapped(project(
      `  utter_cheer_up:
  - text: "Here is something to cheer you up:"
    image: "https://i.example.com/cat.jpg"
    buttons:
    - title: Thanks
      payload: /thanks
    button_type: vertical
    id: cheer_1`,
      ["utter_cheer_up"]
    ))
    expect(dataOf(result, "utter_cheer_up")).toEqual({
      text: "Here is something to cheer you up:",
      image: { url: "https://i.example.com/cat.jpg" },
      buttons: [{ label: "Thanks", payload: "/thanks" }]
    })
    expect(responseWarnings(result)).toEqual([])
  })

  it("names an image that is not an https URL, and every field a message cannot carry, with the response and file", () => {
    const result = mapped(project(
      `  utter_pic:
  - text: Look
    image: "http://insecure.example.com/a.png"
    custom:
      blocks: [{type: divider}]
    attachment: {type: video, payload: {src: "https://example.com/v.mp4"}}
    quick_replies: [{title: A}]`,
      ["utter_pic"]
    ))
    expect(dataOf(result, "utter_pic")).toEqual({ text: "Look", buttons: [] })
    expect(responseWarnings(result)).toEqual([
      "Response utter_pic: image http://insecure.example.com/a.png was not imported: a message's image is an https URL",
      "Response utter_pic: fields custom, attachment, quick_replies were not imported: a message carries text, an image and buttons"
    ])
    const warning = result.report.warnings.find((w) => w.message.startsWith("Response utter_pic: fields custom"))!
    expect(warning).toMatchObject({
      code: "unsupported-feature",
      location: { file: "domain.yml", elementId: "utter_pic" }
    })
  })

  it("keeps the image of a response without text, says its name stands in for the text, and does not call it missing", () => {
    const result = mapped(project(
      `  utter_only_image:
  - image: "https://i.example.com/map.png"
  utter_only_custom:
  - custom: {card: 1}`,
      ["utter_only_image", "utter_only_custom"]
    ))
    expect(dataOf(result, "utter_only_image")).toEqual({
      text: "utter_only_image",
      image: { url: "https://i.example.com/map.png" },
      buttons: []
    })
    expect(responseWarnings(result)).toEqual([
      "Response utter_only_image: it has no text: its name stands in for it (a message needs text)",
      "Response utter_only_custom: it has no text: its name stands in for it (a message needs text)",
      "Response utter_only_custom: field custom was not imported: a message carries text, an image and buttons"
    ])
    expect(result.report.warnings.some((w) => w.code === "unresolved-reference")).toBe(false)
  })

  it("imports the first variant meant for every channel and names the others: random, per channel, conditional", () => {
    const result = mapped(project(
      `  utter_hi:
  - text: Hi on Slack
    channel: slack
  - text: Hello!
  - text: Hey there!
  - text: Hi again, {name}
    condition:
    - type: slot
      name: returning
      value: true
  - text: Hi on Facebook
    channel: facebook
  utter_slack_only:
  - text: Slack says hi
    channel: slack`,
      ["utter_hi", "utter_slack_only"]
    ))
    expect(dataOf(result, "utter_hi")).toEqual({ text: "Hello!", buttons: [] })
    expect(dataOf(result, "utter_slack_only")).toEqual({ text: "Slack says hi", buttons: [] })
    expect(responseWarnings(result)).toEqual([
      "Response utter_hi: 4 of its 5 variants were not imported (for channels slack, facebook; 1 conditional): a step has one text",
      "Response utter_slack_only: the variant imported is for channel slack: it is said on every channel"
    ])
  })

  it("keeps ten buttons and says how many there were", () => {
    const buttons = Array.from({ length: 12 }, (_, i) => `    - title: B${i}\n      payload: /b${i}`).join("\n")
    const result = mapped(project(`  utter_many:\n  - text: Pick\n    buttons:\n${buttons}`, ["utter_many"]))
    expect(dataOf(result, "utter_many").buttons.map((b: { label: string }) => b.label)).toEqual(
      Array.from({ length: 10 }, (_, i) => `B${i}`)
    )
    expect(responseWarnings(result)).toEqual([
      "Response utter_many: 12 buttons, the first 10 imported: a message holds 10"
    ])
  })

  it("reports a response once however many steps say it", () => {
    const result = mapped(project(
      `  utter_a:\n  - text: A\n    custom: {x: 1}\n  utter_b:\n  - text: B`,
      ["utter_a", "utter_b", "utter_a"]
    ))
    expect(result.flow.nodes.filter((n) => n.label === "utter_a")).toHaveLength(2)
    expect(responseWarnings(result)).toEqual([
      "Response utter_a: field custom was not imported: a message carries text, an image and buttons"
    ])
  })

  it("asks a form's question with its utter_ask text, and names the buttons and image that a prompt cannot carry", () => {
    const result = mapped(importRasa({
      "domain.yml": `version: "3.1"
intents: [order]
slots:
  size: {type: text}
responses:
  utter_ask_size:
  - text: Which size?
    image: "https://i.example.com/sizes.png"
    buttons:
    - title: Small
      payload: /inform{"size":"s"}
forms:
  pizza_form:
    required_slots: [size]
`,
      "data/stories.yml": `stories:\n- story: s\n  steps:\n  - intent: order\n  - action: pizza_form\n`
    }))
    expect(dataOf(result, "ask_size")).toMatchObject({ prompt: "Which size?", variable: "size" })
    expect(responseWarnings(result)).toEqual([
      "Response utter_ask_size: fields image, buttons were not imported: a question asks in text only"
    ])
  })
})
