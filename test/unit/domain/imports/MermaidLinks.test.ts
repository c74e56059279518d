/**
 * Mermaid links by their ends: an arrow-head at both ends is a route each
 * way, in every stroke and with either label form; a circle or cross end is
 * read as a plain arrow, and at both ends as two, each time with a warning
 * naming the line and the link; ends that do not pair are one arrow, warned.
 * Open links, `&` groups, chains and `;` keep their plain reading.
 */
import { describe, expect, it } from "@effect/vitest"
import { importMermaid } from "../../../../src/domain/imports/Mermaid.js"
import { readLink } from "../../../../src/domain/imports/MermaidLinks.js"
import { edgesOf, mapped } from "./Conversions.js"

/** Edges but the added start's. */
const routes = (source: string) => edgesOf(mapped(importMermaid(source))).filter((e) => !e.startsWith("start>"))

/** The warnings about link ends, as `line: message`. */
const notes = (source: string) =>
  mapped(importMermaid(source)).report.warnings
    .filter((w) => w.code === "unsupported-feature" && w.message.startsWith("Line "))
    .map((w) => `${w.location?.line}: ${w.message}`)

describe("Mermaid links", () => {
  it("reads a two-way arrow as a route each way, in every stroke and with both label forms, without a warning", () => {
    const source = `flowchart LR
  A <--> B
  C <-.-> D
  E <==> F
  G <-- both --> H
  I <-->|piped| J
  K <== thick ==> L`
    expect(routes(source)).toEqual([
      "A>B next",
      "B>A next",
      "C>D next",
      "D>C next",
      "E>F next",
      "F>E next",
      "G>H next \"both\"",
      "H>G next \"both\"",
      "I>J next \"piped\"",
      "J>I next \"piped\"",
      "K>L next \"thick\"",
      "L>K next \"thick\""
    ])
    expect(notes(source)).toEqual([])
  })

  it("reads a circle or cross end as a plain arrow in the written direction, and says so with the line", () => {
    const source = `flowchart TD
  A --o B
  B --x C
  C -.-o D
  D ==x E
  E -- label --o F`
    expect(routes(source)).toEqual(["A>B next", "B>C next", "C>D next", "D>E next", "E>F next \"label\""])
    expect(notes(source)).toEqual([
      "2: Line 2: A --o B: its circle end was read as a plain arrow (a route has no circle ends)",
      "3: Line 3: B --x C: its cross end was read as a plain arrow (a route has no cross ends)",
      "4: Line 4: C -.-o D: its circle end was read as a plain arrow (a route has no circle ends)",
      "5: Line 5: D ==x E: its cross end was read as a plain arrow (a route has no cross ends)",
      "6: Line 6: E -- label --o F: its circle end was read as a plain arrow (a route has no circle ends)"
    ])
  })

  it("reads circle or cross ends on both sides as two plain arrows, one each way, with a warning", () => {
    const source = `flowchart TD
  A o--o B
  C x-.-x D
  E o-- yes --o F`
    expect(routes(source)).toEqual([
      "A>B next",
      "B>A next",
      "C>D next",
      "D>C next",
      "E>F next \"yes\"",
      "F>E next \"yes\""
    ])
    expect(notes(source)).toEqual([
      "2: Line 2: A o--o B: its two circle ends were read as two plain arrows, one each way",
      "3: Line 3: C x-.-x D: its two cross ends were read as two plain arrows, one each way",
      "4: Line 4: E o-- yes --o F: its two circle ends were read as two plain arrows, one each way"
    ])
  })

  it("reads ends that do not pair up as one arrow left to right, with a warning", () => {
    const source = `flowchart TD
  A <--o B
  C o--> D
  E <--- F`
    expect(routes(source)).toEqual(["A>B next", "C>D next", "E>F next"])
    expect(notes(source)).toEqual([
      "2: Line 2: A <--o B: its ends (arrow-head and circle) do not pair up: read as one plain arrow, left to right",
      "3: Line 3: C o--> D: its ends (circle and arrow-head) do not pair up: read as one plain arrow, left to right",
      "4: Line 4: E <--- F: its ends (arrow-head and open end) do not pair up: read as one plain arrow, left to right"
    ])
  })

  it("gives each pair of an & group both routes of a two-way link, across ; separated statements and chains", () => {
    const source = `flowchart TD
  A & B <--> C; C --> D --o E`
    expect(routes(source)).toEqual(["A>C next", "B>C next", "C>A next", "C>B next", "C>D next", "D>E next"])
    expect(notes(source)).toEqual([
      "2: Line 2: D --o E: its circle end was read as a plain arrow (a route has no circle ends)"
    ])
  })

  it("reads links as Mermaid's lexer does: ids, open and invisible links, text ends, and no link where none starts", () => {
    expect(readLink(" e1@--> B")).toMatchObject({ length: 7, twoWay: false, invisible: false, note: undefined })
    expect(readLink(" --- B")).toMatchObject({ arrow: "---", twoWay: false, note: undefined })
    expect(readLink(" ~~~ B")).toMatchObject({ invisible: true })
    expect(readLink(" -. maybe .-> B")).toMatchObject({ text: "maybe", length: 13, twoWay: false })
    expect(readLink(" == \"a == b\" ==> B")).toMatchObject({ text: "\"a == b\"", twoWay: false })
    expect(readLink(" <-. both .-> B")).toMatchObject({ text: "both", twoWay: true })
    expect(readLink(" B")).toBeUndefined()
    expect(readLink(" -- \"unclosed --> B")).toBeUndefined()
    expect(readLink(" -- never closed")).toBeUndefined()
  })
})
