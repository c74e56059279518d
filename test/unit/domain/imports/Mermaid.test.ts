/**
 * Mermaid flowcharts to flows without a DOM: classic shapes, the
 * `A@{ shape, label }` syntax, chains and `&`, every label form, subgraphs,
 * comments and styling lines; garbage is refused with a reason or mapped with
 * warnings, never thrown.
 */
import { describe, expect, it } from "@effect/vitest"
import { importMermaid } from "../../../../src/domain/imports/Mermaid.js"
import { codesOf, dataOf, edgesOf, mapped, nodesOf, refused, routesFollowable } from "./Conversions.js"

describe("Mermaid import", () => {
  it("reads every classic shape: stadium and circle as terminals, diamond as a decision, the rest as steps", () => {
    const result = mapped(importMermaid(
      `flowchart TD
  A([Start]) --> B[Step one]
  B --> C{Happy?}
  C -->|Yes| D(Round)
  C -- No --> E[[Sub]]
  D --> F[(DB)]
  E --> G{{Hex}}
  F --> H[/Para/]
  G --> I[\\Alt\\]
  H --> J>Flag]
  I --> K((Circle))
  J --> L(((Done)))
  K --> L`,
      "chart.mmd"
    ))
    expect(nodesOf(result)).toEqual([
      "A start Start",
      "B message Step one",
      "C condition Happy?",
      "D message Round",
      "E message Sub",
      "F message DB",
      "G message Hex",
      "H message Para",
      "I message Alt",
      "J message Flag",
      "K message Circle",
      "L end Done"
    ])
    expect(edgesOf(result).slice(0, 4)).toEqual(["A>B next", "B>C next", "C>D case:yes \"Yes\"", "C>E fallback \"No\""])
    const warning = result.report.warnings.find((w) => w.code === "unsupported-feature")
    expect(warning?.location).toEqual({ file: "chart.mmd", line: 3, elementId: "C" })
    routesFollowable(result)
  })

  it("reads A@{ shape, label } nodes, a } inside a quoted label included, and drops a text shape with a warning", () => {
    const result = mapped(importMermaid(`flowchart LR
  a@{ shape: stadium, label: "Begin here" }
  b@{ shape: diamond, label: "Pick" }
  c@{ shape: sl-rect, label: "Your name?" }
  d@{ shape: rect, label: "Hi, {name} }" }
  e@{ shape: dbl-circ, label: 'Bye' }
  n1@{ shape: text, label: "Just a note" }
  f@{ shape: no-such-shape }
  a --> b
  b -->|left| c
  b -->|right| d
  c --> e
  d --> e
  d --> f`))
    expect(nodesOf(result)).toEqual([
      "a start Begin here",
      "b intent-router Pick",
      "c question Your name?",
      "d message Hi, {name} }",
      "e end Bye",
      "f message f"
    ])
    expect(edgesOf(result)).toContain("b>c intent:left \"left\"")
    expect(dataOf(result, "c")).toMatchObject({ prompt: "Your name?", variable: "your_name" })
    expect(codesOf(result)).not.toContain("unreadable")
    expect(result.report.warnings.some((w) => w.code === "unsupported-element" && w.location?.elementId === "n1")).toBe(
      true
    )
    routesFollowable(result)
  })

  it("reads chains, &, every link style, both label forms and quoted labels with ;, ignores ~~~ links and comments", () => {
    const result = mapped(importMermaid(`graph TD
A --> B --> C
A & B --> D & E
D --- F
E -.-> F
F ==> G
G --o H
H --x I
I ~~~ J
A -. dotted .-> J
B == thick ==> J
C -- "quoted; label" --> J
%% a whole-line comment: X --> Y
C -->|"piped"| J %% a trailing comment`))
    const edges = edgesOf(result).filter((e) => !e.startsWith("start>"))
    expect(edges).toEqual([
      "A>B next",
      "A>D next",
      "A>E next",
      "A>J next \"dotted\"",
      "B>C next",
      "B>D next",
      "B>E next",
      "B>J next \"thick\"",
      "D>F next",
      "E>F next",
      "F>G next",
      "G>H next",
      "H>I next",
      "C>J next \"quoted; label\"",
      "C>J next \"piped\""
    ])
    expect(nodesOf(result)).not.toContain("X message X")
    expect(codesOf(result)).toContain("missing-start")
  })

  it("flattens subgraphs with a warning, ignores styling lines, warns on click, reads ; separated statements and front matter", () => {
    const result = mapped(importMermaid(
      `---
title: Grouped
---
flowchart TB
  subgraph one [First group]
    a1 --> a2
  end
  subgraph two
    direction LR
    b1 --> b2
  end
  a2 --> b1; b2 --> c:::warn
  classDef red fill:#f00
  class a1 red
  style a2 fill:#0f0
  linkStyle 0 stroke:#f00
  click a1 "https://example.com"`,
      "groups.mmd"
    ))
    expect(result.flow.subflows).toEqual([])
    expect(edgesOf(result)).toEqual(["a1>a2 next", "b1>b2 next", "a2>b1 next", "b2>c next", "start>a1 next"])
    expect(result.report.warnings.filter((w) => w.code === "unsupported-feature").map((w) => w.message)).toEqual([
      "A click action is not imported",
      "Subgraphs one, two are groups only: their nodes joined the flow"
    ])
    expect(result.report.warnings.find((w) => w.message.startsWith("A click"))?.location).toEqual({
      file: "groups.mmd",
      line: 17
    })
  })

  it("maps what it can of a chart with unreadable lines, each warned with its line", () => {
    const result = mapped(importMermaid(`flowchart TD
 A --> B
 -->-->
 [[[
 A@{ shape:
 B -->
 "unterminated
 C@{ shape: rect, label: "never closed"
 A@{ a: &a [x,x,x,x,x,x,x,x], b: &b [*a,*a,*a,*a,*a,*a,*a,*a], c: [*b,*b,*b,*b,*b,*b,*b,*b] } --> B`))
    expect(edgesOf(result)).toEqual(["A>B next", "A>B next", "start>A next"])
    expect(result.report.warnings.filter((w) => w.code === "unreadable").map((w) => w.location?.line)).toEqual([
      3,
      4,
      5,
      6,
      7,
      8
    ])
    expect(result.report.skipped.elements).toBe(6)
  })

  it("refuses what is not a flowchart, or a flowchart without nodes", () => {
    for (
      const source of [
        "hello world",
        "sequenceDiagram\n A->>B: hi",
        "flowchart TD\n",
        "%% only a comment",
        "{\"json\": true}",
        "\u0000"
      ]
    ) {
      refused(importMermaid(source))
    }
    expect(refused(importMermaid("pie\n \"a\": 1", "pie.mmd")).problems[0]!.location).toEqual({ file: "pie.mmd" })
  })

  it("stays linear on long lines of entities, long chains and one node with thousands of links", () => {
    const started = Date.now()
    mapped(importMermaid(`graph TD\nA-->B;${"#quot;".repeat(100_000)}`))
    mapped(importMermaid(`graph TD\n${Array.from({ length: 40_000 }, (_, i) => `A${i % 300}`).join("-->")}`))
    const fan = mapped(
      importMermaid(
        `graph TD\n${"A --> B\n".repeat(40_000)}A --> ${Array.from({ length: 20_000 }, (_, i) => `C${i}`).join(" & ")}`
      )
    )
    expect(fan.report.mapped.edges).toBe(3000)
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
