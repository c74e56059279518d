/**
 * Dialogflow ES agent exports to intents and flows, from a files map and from
 * a zip: training phrases, parameters as slots, contexts as follow-up
 * routers, welcome and fallback intents. Zips are read under the import
 * limits: a zip bomb is refused before it inflates past the budget, and
 * entry names that climb out of the archive are never read as files.
 */
import { describe, expect, it } from "@effect/vitest"
import { deflateSync, strToU8, zipSync } from "fflate"
import { inflateRawBounded, unzipBounded } from "../../../../src/domain/imports/BoundedInflate.js"
import { importDialogflow } from "../../../../src/domain/imports/Dialogflow.js"
import { convertArchive, convertContent, convertFiles } from "../../../../src/domain/imports/ImportSource.js"
import { dataOf, edgesOf, mapped, nodesOf, refused, routesFollowable } from "./Conversions.js"

const intent = (name: string, extra: object = {}) =>
  JSON.stringify({
    name,
    contexts: [],
    responses: [{ parameters: [], affectedContexts: [], messages: [{ type: 0, speech: [`Answer of ${name}`] }] }],
    ...extra
  })
const says = (...texts: ReadonlyArray<string>) => JSON.stringify(texts.map((text) => ({ data: [{ text }] })))

const agent: Record<string, string> = {
  "agent.json": JSON.stringify({ language: "en" }),
  "intents/Welcome.json": intent("Welcome", { events: [{ name: "WELCOME" }] }),
  "intents/Fallback.json": intent("Fallback", { fallbackIntent: true }),
  "intents/order.json": JSON.stringify({
    name: "order",
    contexts: [],
    responses: [{
      affectedContexts: [{ name: "ordering", lifespan: 2 }],
      parameters: [
        { name: "size", dataType: "@size", required: true, prompts: [{ lang: "en", value: "Which size?" }] },
        { name: "qty", dataType: "@sys.number", required: false }
      ],
      messages: [{ type: 0, speech: "Ordered a $size" }, { type: 4, payload: {} }]
    }]
  }),
  "intents/order_usersays_en.json": JSON.stringify([{
    data: [{ text: "I want a " }, { text: "large", meta: "@size", alias: "size" }, { text: " pizza" }]
  }]),
  "intents/order_usersays_de.json": says("Ich will eine Pizza"),
  "intents/order - yes.json": JSON.stringify({
    name: "order - yes",
    contexts: ["ordering"],
    responses: [{ messages: [{ type: 0, speech: "Confirmed" }] }]
  }),
  "intents/order - yes_usersays_en.json": says("yes", "sure"),
  "intents/orphan.json": JSON.stringify({
    name: "orphan",
    contexts: ["nobody-sets-this"],
    responses: [{ messages: [] }]
  }),
  "entities/size.json": JSON.stringify({ name: "size", isRegexp: false }),
  "entities/size_entries_en.json": JSON.stringify([
    { value: "large", synonyms: ["large", "big"] },
    { value: "small", synonyms: [] },
    { value: "" },
    null
  ]),
  "intents/broken.json": "{not json",
  "intents/odd.json": "[1, 2]",
  "package.json": "{}"
}

describe("Dialogflow import", () => {
  it("reads intents, phrases in the agent's language, parameters as slots, contexts as a follow-up router", () => {
    const result = mapped(importDialogflow(agent))
    expect(result.intents.map((i) => [i.name, i.utterances])).toEqual([
      ["Welcome", []],
      ["Fallback", []],
      ["order", ["I want a large pizza"]],
      ["order_-_yes", ["yes", "sure"]],
      ["orphan", []]
    ])
    expect(result.intents.find((i) => i.name === "order")!.slots).toEqual([
      {
        name: "size",
        entity: { kind: "list", values: [{ value: "large", synonyms: ["big"] }, { value: "small", synonyms: [] }] },
        required: true
      },
      { name: "qty", entity: { kind: "number" }, required: false }
    ])
    expect(nodesOf(result).map((n) => n.split(" ").slice(0, 2).join(" "))).toEqual([
      "start start",
      "router intent-router",
      "Welcome message",
      "ask_size question",
      "order message",
      "order_followup intent-router",
      "order_-_yes message",
      "Fallback message"
    ])
    expect(edgesOf(result)).toEqual([
      "start>Welcome next",
      "Welcome>router next",
      "router>ask_size intent:order",
      "ask_size>order answered",
      "order>order_followup next",
      "order_followup>order_-_yes intent:order_-_yes",
      "order_-_yes>router next",
      "order_followup>router fallback",
      "router>router intent:orphan",
      "router>Fallback fallback",
      "Fallback>router next"
    ])
    expect(dataOf(result, "order").text).toBe("Ordered a {{size}}")
    expect(dataOf(result, "ask_size").prompt).toBe("Which size?")
    expect(result.report.warnings.map((w) => [w.code, w.location?.file])).toEqual(expect.arrayContaining([
      ["unreadable", "intents/broken.json"],
      ["unsupported-element", "intents/odd.json"],
      ["unsupported-feature", "intents/order.json"],
      ["unresolved-reference", "intents/orphan.json"]
    ]))
    routesFollowable(result)
  })

  it("reads nulls and wrong types where objects belong without rejecting the agent", () => {
    const result = mapped(importDialogflow({
      "intents/a.json": JSON.stringify({ name: "a", responses: [null, 5], contexts: [null, 5], events: [null] }),
      "intents/b.json": JSON.stringify({
        name: "b",
        userSays: [null, { data: null }, { data: [null, { text: 5 }, { text: "hi" }] }],
        responses: [{
          parameters: [null, { dataType: 5 }, { name: null, dataType: "@sys.number", required: true, prompts: [null] }],
          affectedContexts: [null, { lifespan: "x" }],
          messages: [null, { type: 0, speech: [null, 5, "B"] }]
        }]
      })
    }))
    expect(result.intents.map((i) => [i.name, i.utterances])).toEqual([["a", []], ["b", ["hi"]]])
    expect(dataOf(result, "b").text).toBe("B")
    routesFollowable(result)
  })

  it("refuses an export without intents", () => {
    for (
      const files of [{ "agent.json": "{}" }, { "agent.json": "null" }, { "intents/x.json": "{" }, {
        "entities/e.json": "{\"name\":\"e\"}"
      }]
    ) {
      refused(importDialogflow(files))
    }
  })

  it("reads the same agent from a zip with a top folder; skips __MACOSX, hidden and binary entries", () => {
    const zip = zipSync({
      ...Object.fromEntries(Object.entries(agent).map(([path, text]) => [`my-agent/${path}`, strToU8(text)])),
      "my-agent/__MACOSX/intents/._x.json": strToU8(intent("mac")),
      "my-agent/.git/intents/y.json": strToU8(intent("hidden")),
      "my-agent/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0xc3])
    })
    const zipped = mapped(convertArchive("dialogflow", zip))
    const plain = mapped(convertFiles("dialogflow", agent))
    expect(nodesOf(zipped)).toEqual(nodesOf(plain))
    expect(edgesOf(zipped)).toEqual(edgesOf(plain))
    expect(zipped.report.mapped).toEqual(plain.report.mapped)
  })

  it("never reads an entry whose name climbs out of the archive", () => {
    const zip = zipSync({
      "../../etc/passwd.json": strToU8(intent("climbed")),
      "a/../intents/b.json": strToU8(intent("dotdot")),
      "intents/ok.json": strToU8(intent("ok"))
    })
    const result = mapped(convertArchive("dialogflow", zip))
    expect(result.intents.map((i) => i.name)).toEqual(["ok"])
    refused(convertArchive("dialogflow", zipSync({ "../evil/intents/x.json": strToU8(intent("x")) })))
  })

  it("refuses what is not a zip, a truncated or empty zip, too many entries, and a zip bomb, before inflating past the budget", () => {
    const agentZip = zipSync(Object.fromEntries(Object.entries(agent).map(([p, t]) => [p, strToU8(t)])))
    for (
      const bytes of [
        strToU8("hello world"),
        new Uint8Array([0x50, 0x4b, 1, 2, 3]),
        zipSync({}),
        zipSync({ "dir/": new Uint8Array(0) }),
        agentZip.slice(0, 40)
      ]
    ) {
      refused(convertArchive("dialogflow", bytes))
    }
    const bomb = zipSync({ "big.yml": new Uint8Array(200 * 1024 * 1024) }, { level: 9 })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(unzipBounded(bomb)).toEqual({ ok: false, reason: "it inflates to more than 52428800 bytes" })
    expect(refused(convertArchive("rasa", bomb)).problems[0]!.message).toMatch(/inflates to more than/)

    const three = zipSync({ "a.txt": strToU8("a"), "b.txt": strToU8("b"), "c.txt": strToU8("c") })
    expect(unzipBounded(three, { entries: 2, bytes: 1000 })).toEqual({ ok: false, reason: "more than 2 entries" })
    expect(
      unzipBounded(zipSync({ "a": new Uint8Array(1000), "b": new Uint8Array(1000) }), { entries: 10, bytes: 1500 })
    )
      .toEqual({ ok: false, reason: "it inflates to more than 1500 bytes" })
  })

  it("inflates raw DEFLATE under a budget", () => {
    const data = deflateSync(new Uint8Array(5000).fill(7))
    expect(inflateRawBounded(data, 1000)).toEqual({ ok: false, reason: "it inflates to more than 1000 bytes" })
    const inflated = inflateRawBounded(data, 10_000)
    expect(inflated.ok && inflated.bytes.length).toBe(5000)
    expect(inflateRawBounded(new Uint8Array([255, 255, 255, 255]))).toEqual({
      ok: false,
      reason: "it is not valid DEFLATE data"
    })
    expect(inflateRawBounded(deflateSync(new Uint8Array(200 * 1024 * 1024), { level: 9 })).ok).toBe(false)
  })

  it("reads a single intent file sent as content, and refuses a multi-file Mermaid source", () => {
    const one = mapped(convertContent("dialogflow", intent("x"), "intents/x.json"))
    expect(one.intents.map((i) => i.name)).toEqual(["x"])
    refused(convertFiles("mermaid", { "a.mmd": "graph TD\nA-->B", "b.mmd": "graph TD\nA-->B" }))
  })
})
